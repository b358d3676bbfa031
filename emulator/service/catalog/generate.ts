/**
 * Deterministic generator of the shipped sample catalog (emulator/service/data/catalog.jsonl.gz).
 * `npx tsx emulator/service/catalog/generate.ts [out]` rewrites it byte for byte: everything comes
 * from one seeded PRNG, records are written in a fixed order with a fixed key order, and the gzip
 * stream carries no timestamp. The quirks it plants are listed in catalog/README.md.
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { isbn10CheckChar, withCheckDigit } from '../engine/ident';
import { CATEGORIES } from '../engine/fees';
import type { CatalogRecord, Dimensions } from './format';
import { Prng } from './prng';
import { SAMPLE_CATALOG_PATH } from './index';

export const CATALOG_SEED = 'scan-service-sample-catalog/1';
const BASE_PRODUCTS = 9000;
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const IMG = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Fixed "now" of the sample: eligibility checks are dated before it. */
const CHECKED_AT = 1763337600; // 2025-11-17T00:00:00Z

interface CategoryShape {
  weight: number;
  nouns: string[];
  brands: string[];
  price: [number, number];
  /** inches: length, width, height ranges; pounds: weight range */
  dims: [[number, number], [number, number], [number, number], [number, number]];
  hazmat: number;
  meltable: number;
  adult: number;
  colors: boolean;
  sizes?: string[];
}

const COLORS = ['Black', 'White', 'Red', 'Blue', 'Navy', 'Green', 'Grey', 'Pink', 'Beige', 'Teal', 'Silver', 'Multicolor'];

const SHAPES: Record<string, CategoryShape> = {
  'Home & Kitchen': {
    weight: 18,
    nouns: [
      'Skillet',
      'Cutting Board',
      'Storage Bin',
      'Throw Pillow',
      'Knife Set',
      'Food Container Set',
      'Shower Curtain',
      'Bath Towel Set',
      'Coffee Grinder',
      'Mixing Bowls',
    ],
    brands: ['Acme', 'KitchenPro', 'HomeNest', 'Cozyline', 'Brightware', 'Oak & Ash'],
    price: [599, 8999],
    dims: [
      [4, 20],
      [3, 14],
      [1, 10],
      [0.2, 12],
    ],
    hazmat: 0.02,
    meltable: 0,
    adult: 0,
    colors: true,
    sizes: ['Small', 'Medium', 'Large', '12 Inch', 'Queen', 'King'],
  },
  'Toys & Games': {
    weight: 10,
    nouns: ['Building Blocks', 'Puzzle 1000 Pieces', 'Plush Bear', 'Card Game', 'RC Car', 'Art Kit', 'Board Game', 'Action Figure'],
    brands: ['Playwise', 'TinyTown', 'Acme', 'FunForge', 'Kidzo'],
    price: [499, 6999],
    dims: [
      [3, 18],
      [2, 14],
      [1, 10],
      [0.1, 6],
    ],
    hazmat: 0.01,
    meltable: 0,
    adult: 0,
    colors: true,
  },
  'Health & Household': {
    weight: 9,
    nouns: [
      'Vitamin D3 Softgels',
      'Hand Sanitizer',
      'Dish Soap',
      'Laundry Pods',
      'Bandages',
      'Fish Oil',
      'Protein Powder',
      'Disinfecting Wipes',
    ],
    brands: ['NatureWell', 'PureLeaf Labs', 'CleanCo', 'VitaCore', 'Acme'],
    price: [399, 4999],
    dims: [
      [2, 9],
      [1.5, 5],
      [0.5, 4],
      [0.05, 2.5],
    ],
    hazmat: 0.06,
    meltable: 0.03,
    adult: 0.05,
    colors: false,
  },
  'Beauty & Personal Care': {
    weight: 9,
    nouns: ['Lip Balm', 'Nail Polish', 'Shampoo', 'Hair Spray', 'Face Serum', 'Body Lotion', 'Perfume', 'Sunscreen SPF 50'],
    brands: ['Glowhaus', 'Bella Mare', 'NatureWell', 'Silkroot'],
    price: [299, 3999],
    dims: [
      [1.5, 8],
      [1, 4],
      [0.4, 3],
      [0.03, 1.5],
    ],
    hazmat: 0.08,
    meltable: 0.03,
    adult: 0.02,
    colors: true,
  },
  'Grocery & Gourmet Food': {
    weight: 7,
    nouns: ['Dark Chocolate Bar', 'Ground Coffee', 'Green Tea', 'Trail Mix', 'Olive Oil', 'Protein Bar', 'Gummy Bears', 'Maple Syrup'],
    brands: ['Farmstead', 'Cocoa Hill', 'GreenHarvest', 'Acme'],
    price: [299, 3499],
    dims: [
      [2, 12],
      [2, 8],
      [1, 6],
      [0.1, 6],
    ],
    hazmat: 0,
    meltable: 0.25,
    adult: 0,
    colors: false,
  },
  'Sports & Outdoors': {
    weight: 8,
    nouns: ['Yoga Mat', 'Water Bottle', 'Resistance Bands', 'Camping Lantern', 'Dumbbell Set', 'Tent', 'Bike Lock'],
    brands: ['PeakTrail', 'IronPulse', 'Acme', 'Waveline'],
    price: [799, 14999],
    dims: [
      [4, 40],
      [3, 14],
      [1, 10],
      [0.2, 25],
    ],
    hazmat: 0.02,
    meltable: 0,
    adult: 0,
    colors: true,
    sizes: ['S', 'M', 'L', 'XL'],
  },
  'Tools & Home Improvement': {
    weight: 7,
    nouns: ['Cordless Drill', 'Screwdriver Set', 'LED Bulb', 'Tape Measure', 'Spray Paint', 'Work Gloves', 'Wood Glue'],
    brands: ['Torqmaster', 'Acme', 'BuildRight', 'Voltix'],
    price: [499, 19999],
    dims: [
      [3, 30],
      [2, 12],
      [0.5, 8],
      [0.1, 20],
    ],
    hazmat: 0.05,
    meltable: 0,
    adult: 0,
    colors: false,
  },
  Electronics: {
    weight: 7,
    nouns: ['USB-C Cable', 'Wireless Earbuds', 'Power Bank', 'HDMI Cable', 'Bluetooth Speaker', 'Phone Case', 'Wall Charger'],
    brands: ['Voltix', 'SoundArc', 'Nexa', 'Acme'],
    price: [799, 29999],
    dims: [
      [2, 20],
      [1.5, 14],
      [0.4, 8],
      [0.05, 15],
    ],
    hazmat: 0.04,
    meltable: 0,
    adult: 0,
    colors: true,
  },
  'Office Products': {
    weight: 5,
    nouns: ['Gel Pens', 'Sticky Notes', 'Stapler', 'Notebook', 'Desk Organizer', 'Printer Paper'],
    brands: ['Paperly', 'Acme', 'Inkwell'],
    price: [299, 4999],
    dims: [
      [3, 14],
      [2, 10],
      [0.2, 4],
      [0.05, 4],
    ],
    hazmat: 0.01,
    meltable: 0,
    adult: 0,
    colors: true,
  },
  'Pet Supplies': {
    weight: 5,
    nouns: ['Dog Chew Toy', 'Cat Litter', 'Pet Shampoo', 'Dog Leash', 'Cat Scratcher', 'Dog Treats'],
    brands: ['Pawsome', 'FurFriend', 'Acme'],
    price: [399, 6999],
    dims: [
      [3, 24],
      [2, 16],
      [1, 12],
      [0.2, 40],
    ],
    hazmat: 0.01,
    meltable: 0.02,
    adult: 0,
    colors: true,
    sizes: ['Small', 'Medium', 'Large'],
  },
  Baby: {
    weight: 4,
    nouns: ['Baby Wipes', 'Pacifier', 'Sippy Cup', 'Swaddle Blanket', 'Teether'],
    brands: ['LittleSprout', 'Kidzo', 'Acme'],
    price: [399, 5999],
    dims: [
      [3, 24],
      [3, 16],
      [1, 12],
      [0.2, 20],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0,
    colors: true,
  },
  'Clothing, Shoes & Jewelry': {
    weight: 5,
    nouns: ['Crew Socks', 'T-Shirt', 'Running Shoes', 'Hoodie', 'Silver Necklace', 'Baseball Cap'],
    brands: ['Threadline', 'Urban Loom', 'Acme'],
    price: [899, 7999],
    dims: [
      [6, 14],
      [5, 11],
      [0.5, 3],
      [0.1, 2.5],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0,
    colors: true,
    sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  },
  Automotive: {
    weight: 4,
    nouns: ['Motor Oil', 'Wiper Blades', 'Car Wax', 'Tire Inflator', 'Seat Covers'],
    brands: ['RoadMax', 'Torqmaster', 'Acme'],
    price: [599, 14999],
    dims: [
      [3, 40],
      [2, 14],
      [1, 10],
      [0.2, 30],
    ],
    hazmat: 0.1,
    meltable: 0,
    adult: 0,
    colors: false,
  },
  Books: {
    weight: 6,
    nouns: ['Cookbook', 'Mystery Novel', 'Field Guide', 'Workbook', 'Biography', 'Atlas'],
    brands: ['Harbor Press', 'Quill House', 'Northlight Books'],
    price: [499, 4999],
    dims: [
      [5, 11],
      [4, 8.5],
      [0.3, 2.2],
      [0.2, 3],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0.01,
    colors: false,
  },
  'Movies & TV': {
    weight: 2,
    nouns: ['Blu-ray Collection', 'DVD Box Set', 'Documentary DVD'],
    brands: ['Silverframe', 'Reelhouse'],
    price: [599, 4999],
    dims: [
      [7.4, 7.6],
      [5.2, 5.5],
      [0.5, 1.4],
      [0.15, 0.9],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0.03,
    colors: false,
  },
  Music: {
    weight: 2,
    nouns: ['Vinyl LP', 'Audio CD', 'Greatest Hits CD'],
    brands: ['Blue Note Bay', 'Echo Records'],
    price: [799, 3999],
    dims: [
      [5.5, 12.5],
      [4.9, 12.5],
      [0.3, 0.6],
      [0.15, 0.7],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0,
    colors: false,
  },
  'Video Games': {
    weight: 2,
    nouns: ['Racing Game', 'Adventure Game', 'Controller', 'Sports Game'],
    brands: ['Pixelforge', 'Nexa'],
    price: [1499, 6999],
    dims: [
      [6.6, 7],
      [5.2, 5.5],
      [0.4, 2.5],
      [0.15, 1],
    ],
    hazmat: 0,
    meltable: 0,
    adult: 0,
    colors: false,
  },
};

/** Brands spelled differently on some listings (blocklists match exactly, so "ACME" is not "Acme"). */
const CASE_VARIANTS: Record<string, Array<[string, number]>> = {
  Acme: [
    ['Acme', 70],
    ['ACME', 22],
    ['acme', 8],
  ],
  KitchenPro: [
    ['KitchenPro', 80],
    ['Kitchenpro', 20],
  ],
  NatureWell: [
    ['NatureWell', 75],
    ['NATUREWELL', 15],
    ['Naturewell', 10],
  ],
  Voltix: [
    ['Voltix', 85],
    ['VOLTIX', 15],
  ],
};
const ADJECTIVES = [
  'Premium',
  'Classic',
  'Deluxe',
  'Compact',
  'Heavy-Duty',
  'Eco',
  'Ultra',
  'Everyday',
  'Pro',
  'Essential',
  'Original',
  'Travel',
];
const DETAILS = [
  'with Lid',
  '2-Pack Refill',
  'for Kids',
  '12 oz',
  '16.9 fl oz',
  'Stainless Steel',
  'BPA-Free',
  '"Large" Edition',
  'Assorted, 3 Colors',
  '10" x 12"',
];

function cents(p: Prng, [lo, hi]: [number, number]): number {
  const v = p.logInt(lo, hi);
  return Math.max(199, Math.floor(v / 100) * 100 + p.pick([99, 99, 99, 95, 49, 97, 0]));
}

const dec = (hundredths: number) => hundredths / 100;
const w3 = (thousandths: number) => thousandths / 1000;

/**
 * Item sides drawn on a log scale (small items are common, big ones rare), each side no longer
 * than the one before; weight from volume times a density (3 to 22 thousandths of a pound per
 * cubic inch, i.e. packed goods lighter than water), kept within the category's weight range.
 */
function makeDims(p: Prng, s: CategoryShape, big: boolean): { item: Dimensions; pkg: Dimensions } {
  const h100 = (x: number) => Math.round(x * 100);
  const [[l0, l1], [w0, w1], [t0, t1], [wt0, wt1]] = big
    ? [
        [36, 70],
        [14, 30],
        [8, 24],
        [18, 85],
      ]
    : s.dims;
  let l = p.logInt(h100(l0), h100(l1));
  if (p.chance(0.005) && !big) l = p.int(11000, 13000); // a few special-oversize giants
  const w = p.logInt(h100(w0), Math.max(h100(w0), Math.min(h100(w1), l)));
  const h = p.logInt(h100(t0), Math.max(h100(t0), Math.min(h100(t1), w)));
  const density = p.int(3, 22); // thousandths of a pound per cubic inch
  const byVolume = Math.round((l * w * h * density) / 1_000_000); // thousandths of a pound
  const wt = Math.min(Math.round(wt1 * 1000), Math.max(Math.round(wt0 * 1000), byVolume));
  const item = { length: dec(l), width: dec(w), height: dec(h), weight: w3(wt) };
  const pad = () => p.int(10, 60);
  const pkg = {
    length: dec(l + pad()),
    width: dec(w + pad()),
    height: dec(h + p.int(5, 40)),
    weight: w3(wt + p.int(10, Math.max(20, Math.round(wt * 0.12)))),
  };
  return { item, pkg };
}

class Ids {
  private used = new Set<string>();
  constructor(private p: Prng) {}
  private fresh(make: () => string): string {
    for (;;) {
      const v = make();
      if (!this.used.has(v)) {
        this.used.add(v);
        return v;
      }
    }
  }
  asin(): string {
    return this.fresh(() => 'B0' + this.p.chars(8, ALNUM));
  }
  /** UPC-A; about a quarter start with 0 (and some with 00), as real US codes do. */
  upc(): string {
    return this.fresh(() => {
      const lead = this.p.weighted<string>([
        ['0', 20],
        ['00', 6],
        ['6', 30],
        ['7', 25],
        ['8', 19],
      ]);
      return withCheckDigit(lead + this.p.digits(11 - lead.length));
    });
  }
  ean(prefix: string): string {
    return this.fresh(() => withCheckDigit(prefix + this.p.digits(12 - prefix.length)));
  }
  isbn(): { isbn13: string; isbn10: string } {
    const body9 = this.fresh(() => this.p.pick(['0', '1']) + this.p.digits(8));
    return { isbn13: withCheckDigit('978' + body9), isbn10: body9 + isbn10CheckChar(body9) };
  }
  image(): string {
    return this.p.chars(11, IMG);
  }
}

function history(p: Prng, rank: number | null, price: number | null): CatalogRecord['history'] {
  if (rank === null || price === null || p.chance(0.12)) return undefined;
  const drift = () => p.int(70, 140);
  const bsr = [0, 1, 2, 3].map(() => Math.max(1, Math.round((rank * drift()) / 100))) as [number, number, number, number];
  const pr = [0, 1, 2, 3].map(() => Math.round((price * p.int(85, 115)) / 100)) as [number, number, number, number];
  const instock = [0, 1, 2, 3].map(() => p.int(4000, 10000)) as [number, number, number, number];
  const base = rank < 1000 ? 200 : rank < 20000 ? 60 : rank < 200000 ? 10 : 1;
  const drops = [1, 2, 3, 6].map((k) => Math.max(0, Math.round((base * k * p.int(50, 150)) / 100))) as [number, number, number, number];
  return { bsr, price: pr, instock_rate: instock, rank_drops: drops };
}

/** The offer members of a record (their meaning is documented once, in format.ts). */
type Offers = Pick<
  CatalogRecord,
  | 'buybox_price'
  | 'lowest_price_new_fba'
  | 'lowest_price_new_fbm'
  | 'lowest_price_used_fba'
  | 'lowest_price_used_fbm'
  | 'competitive_sellers'
  | 'new_fba_offers_count'
  | 'new_fbm_offers_count'
  | 'total_offers_count'
>;

function offers(p: Prng, price: number): Offers {
  const fba = p.weighted<number>([
    [0, 8],
    [1, 20],
    [2, 18],
    [3, 14],
    [5, 14],
    [8, 10],
    [12, 8],
    [20, 8],
  ]);
  const fbm = p.weighted<number>([
    [0, 20],
    [1, 25],
    [2, 20],
    [4, 15],
    [7, 12],
    [15, 8],
  ]);
  const usedCount = p.chance(0.3) ? p.int(1, 6) : 0;
  const noBuyBox = fba + fbm === 0 || p.chance(0.02);
  const newFba = fba > 0 ? Math.round((price * p.int(97, 103)) / 100) : null;
  const newFbm = fbm > 0 ? Math.round((price * p.int(92, 115)) / 100) : null;
  const used = usedCount > 0 ? Math.round((price * p.int(55, 85)) / 100) : null;
  return {
    buybox_price: noBuyBox ? null : price,
    lowest_price_new_fba: newFba,
    lowest_price_new_fbm: newFbm,
    lowest_price_used_fba: used !== null && p.chance(0.5) ? used : null,
    lowest_price_used_fbm: used,
    competitive_sellers: fba === 0 ? 0 : p.int(1, fba),
    new_fba_offers_count: fba,
    new_fbm_offers_count: fbm,
    total_offers_count: fba + fbm + usedCount,
  };
}

function eligibility(p: Prng, hazmat: boolean, meltable: boolean, adult: boolean): CatalogRecord['inbound_eligibility'] {
  const codes: string[] = [];
  if (hazmat && p.chance(0.5)) codes.push('HAZMAT_REVIEW_REQUIRED');
  if (meltable && p.chance(0.4)) codes.push('MELTABLE_OUT_OF_SEASON');
  if (adult && p.chance(0.3)) codes.push('ADULT_PRODUCT_RESTRICTED');
  if (p.chance(0.01)) codes.push('BRAND_APPROVAL_REQUIRED');
  return { eligible: codes.length === 0, updated_at: CHECKED_AT - p.int(0, 30 * 86400), ineligible_codes: codes };
}

function record(fields: CatalogRecord): CatalogRecord {
  // Fixed key order, absent history left out: the same object always serialises the same way.
  const { history: h, ...rest } = fields;
  return h ? { ...rest, history: h } : rest;
}

/** Products of one marketplace built fresh (US base, or UK/DE-only lines). */
function baseProducts(p: Prng, ids: Ids, marketplaceId: number, count: number, eanPrefixes: string[] | null): CatalogRecord[] {
  const out: CatalogRecord[] = [];
  const cats = Object.keys(SHAPES).map((c) => [c, SHAPES[c].weight] as const);
  while (out.length < count) {
    const category = p.weighted(cats);
    const s = SHAPES[category];
    const isBook = category === 'Books';
    const noun = p.pick(s.nouns);
    const baseBrand = p.pick(s.brands);
    const family = !isBook && p.chance(0.12) ? p.int(2, 5) : 1;
    const parent = family > 1 ? ids.asin() : null;
    const big = (category === 'Sports & Outdoors' || category === 'Home & Kitchen' || category === 'Pet Supplies') && p.chance(0.04);
    const hazmat = p.chance(s.hazmat);
    const meltable = p.chance(s.meltable);
    const adult = p.chance(s.adult);
    const basePrice = cents(p, big ? [4999, 24999] : s.price);
    const adjective = p.pick(ADJECTIVES);
    const detail = p.chance(0.5) ? ' ' + p.pick(DETAILS) : '';
    const dims = makeDims(p, s, big);
    const colors = family > 1 ? COLORS.slice(p.int(0, 6)) : COLORS;
    for (let v = 0; v < family && out.length < count; v++) {
      const brandVariants = CASE_VARIANTS[baseBrand];
      const brand = brandVariants ? p.weighted(brandVariants) : baseBrand;
      const color = s.colors && (family > 1 || p.chance(0.4)) ? colors[v % colors.length] : null;
      const size = s.sizes && (family > 1 || p.chance(0.3)) ? p.pick(s.sizes) : null;
      const identifiers: CatalogRecord['identifiers'] = {};
      let asin: string;
      if (isBook) {
        const isbn = ids.isbn();
        asin = isbn.isbn10; // a book's ASIN is its ISBN-10
        identifiers.isbn = [isbn.isbn13, isbn.isbn10];
        identifiers.ean = [isbn.isbn13];
      } else {
        asin = ids.asin();
        if (eanPrefixes) {
          identifiers.ean = [ids.ean(p.pick(eanPrefixes))];
          if (p.chance(0.1)) identifiers.upc = [ids.upc()];
        } else if (p.chance(0.03)) {
          identifiers.jan = [ids.ean(p.pick(['45', '49']))];
        } else {
          const upc = ids.upc();
          identifiers.upc = [upc];
          if (p.chance(0.3)) identifiers.ean = ['0' + upc];
          if (p.chance(0.04)) identifiers.gtin = [withCheckDigit(String(p.int(1, 8)) + '0' + upc.slice(0, 11))];
        }
      }
      const price = family > 1 ? Math.max(199, basePrice + p.int(-2, 2) * 100) : basePrice;
      const o = offers(p, price);
      const rank = p.chance(0.01) ? null : p.logInt(1, 2_500_000);
      const title = `${brand} ${adjective} ${noun}${detail}${color ? ', ' + color : ''}${size ? ', ' + size : ''}`;
      out.push(
        record({
          marketplace_id: marketplaceId,
          asin,
          title,
          brand: p.chance(0.005) ? null : brand,
          color,
          size_name: size,
          category,
          rank,
          ...o,
          market_pack_quantity: 1,
          number_of_variations: family > 1 ? family : 0,
          parent_asin: parent,
          is_hazmat: hazmat,
          is_meltable: meltable,
          is_adult: adult,
          package_dimensions: dims.pkg,
          item_dimensions: dims.item,
          identifiers,
          images: Array.from({ length: p.int(1, 3) }, () => ids.image()),
          fees_available: !p.chance(0.02),
          inbound_eligibility: eligibility(p, hazmat, meltable, adult),
          history: history(p, rank, o.buybox_price),
        }),
      );
    }
  }
  return out;
}

/** Extra listings that reuse a product's identifiers: multipacks ("Pack of N") and duplicate listings. */
function sharedIdentifierListings(p: Prng, ids: Ids, base: CatalogRecord[]): CatalogRecord[] {
  const out: CatalogRecord[] = [];
  for (const b of base) {
    if (b.category === 'Books' || b.parent_asin) continue;
    if (p.chance(0.08)) {
      const n = p.weighted<number>([
        [2, 30],
        [3, 15],
        [4, 15],
        [6, 20],
        [12, 12],
        [24, 8],
      ]);
      const price = Math.round(((b.buybox_price ?? b.lowest_price_new_fbm ?? 999) * n * p.int(80, 98)) / 10000) * 100 + 99;
      const pk = b.package_dimensions;
      const stack = Math.min(n, 6);
      const rows = Math.ceil(n / stack);
      const pkg = {
        length: pk.length,
        width: Math.round(pk.width * rows * 100) / 100,
        height: Math.round(pk.height * stack * 100) / 100,
        weight: Math.round(pk.weight * n * 1000 + 50) / 1000,
      };
      const item = {
        length: b.item_dimensions.length,
        width: Math.round(b.item_dimensions.width * rows * 100) / 100,
        height: Math.round(b.item_dimensions.height * stack * 100) / 100,
        weight: Math.round(b.item_dimensions.weight * n * 1000) / 1000,
      };
      const identifiers: CatalogRecord['identifiers'] = JSON.parse(JSON.stringify(b.identifiers));
      if (n >= 12 && identifiers.upc && p.chance(0.5))
        identifiers.gtin = [withCheckDigit(String(p.int(1, 8)) + '0' + identifiers.upc[0].slice(0, 11))];
      const o = offers(p, price);
      const rank = p.chance(0.02) ? null : p.logInt(500, 2_500_000);
      out.push(
        record({
          ...b,
          asin: ids.asin(),
          title: `${b.title}, Pack of ${n}`,
          rank,
          ...o,
          market_pack_quantity: n,
          package_dimensions: pkg,
          item_dimensions: item,
          identifiers,
          images: [ids.image()],
          fees_available: !p.chance(0.02),
          inbound_eligibility: eligibility(p, b.is_hazmat, b.is_meltable, b.is_adult),
          history: history(p, rank, o.buybox_price),
        }),
      );
    } else if (p.chance(0.02)) {
      const o = offers(p, b.buybox_price ?? 999);
      const rank = p.logInt(50_000, 2_500_000);
      out.push(
        record({
          ...b,
          asin: ids.asin(),
          title: b.title.replace(/^(\S+)/, '$1 -'),
          rank,
          ...o,
          images: [ids.image()],
          history: history(p, rank, o.buybox_price),
        }),
      );
    }
  }
  return out;
}

/** The same products listed on another marketplace: local price, rank and offers; same ASIN and identifiers. */
function relist(p: Prng, from: CatalogRecord[], marketplaceId: number, share: number, priceBp: number): CatalogRecord[] {
  const out: CatalogRecord[] = [];
  for (const b of from) {
    if (!p.chance(share)) continue;
    const price = Math.max(199, Math.floor(((b.buybox_price ?? b.lowest_price_new_fbm ?? 999) * priceBp) / 1_000_000) * 100 + 99);
    const o = offers(p, price);
    const rank = b.rank === null ? null : p.logInt(1, 1_500_000);
    out.push(
      record({
        ...b,
        marketplace_id: marketplaceId,
        rank,
        ...o,
        fees_available: !p.chance(0.02),
        history: history(p, rank, o.buybox_price),
      }),
    );
  }
  return out;
}

export function generateCatalog(): CatalogRecord[] {
  for (const c of Object.keys(SHAPES)) if (!CATEGORIES[c]) throw new Error(`category ${c} has no fee rule`);
  const p = new Prng(CATALOG_SEED);
  const ids = new Ids(p);
  const usBase = baseProducts(p, ids, 1, BASE_PRODUCTS, null);
  const us = [...usBase, ...sharedIdentifierListings(p, ids, usBase)];
  const ca = relist(p, us, 2, 0.4, 13600);
  const uk = [...relist(p, us, 4, 0.35, 8000), ...baseProducts(p, ids, 4, 1200, ['50'])];
  const de = [...relist(p, us, 5, 0.35, 9500), ...baseProducts(p, ids, 5, 1400, ['40', '41', '42', '43', '44'])];
  return [...us, ...ca, ...uk, ...de];
}

/** The catalog file's bytes: JSON Lines, gzip level 9 (no name, no timestamp in the header). */
export function catalogBytes(records = generateCatalog()): Buffer {
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

if (require.main === module) {
  const out = process.argv[2] ?? SAMPLE_CATALOG_PATH;
  const records = generateCatalog();
  const bytes = catalogBytes(records);
  writeFileSync(out, bytes);
  console.log(`wrote ${records.length} products (${bytes.length} bytes) to ${out}`);
}
