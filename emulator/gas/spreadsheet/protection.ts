/**
 * Range and sheet protection (Range.protect, Sheet.protect, getProtections): the Protection object a
 * script sees, the protections' model and the check every content write makes. Google documents
 * that a new protection mirrors the spreadsheet's own permissions until the script changes its
 * editors, so it restricts nobody before that; afterwards a user who is neither the owner nor a
 * listed editor gets Google's message on a write.
 */
import type { Ctx } from './context';
import { Area, liveArea, WorkbookCore } from './model';
import type { Objects, RangeObject } from './objects';
import { UserImpl } from './user';
import { typeName } from './checks';

export const ProtectionType = { RANGE: 'RANGE', SHEET: 'SHEET' } as const;

export const PROTECTED_MESSAGE =
  'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.';

export interface ProtectionModel {
  type: 'RANGE' | 'SHEET';
  area: Area;
  description: string;
  warningOnly: boolean;
  /** null: mirrors the spreadsheet's permissions (everyone who may edit the file may edit here). */
  editors: Set<string> | null;
  domainEdit: boolean;
  /** Ranges left editable inside a sheet protection. */
  unprotected: Area[];
  creator: string;
}

const registry = new WeakMap<WorkbookCore, ProtectionModel[]>();
export function protectionsOf(wb: WorkbookCore): ProtectionModel[] {
  let l = registry.get(wb);
  if (!l) registry.set(wb, (l = []));
  return l.filter((p) => wb.sheets.includes(p.area.sheet));
}
export function addProtection(wb: WorkbookCore, p: ProtectionModel): void {
  protectionsOf(wb);
  registry.get(wb)!.push(p);
}
/** A new protection of `area` as Range/Sheet.protect() makes it (Google's defaults), registered with the workbook. */
export function protect(wb: WorkbookCore, type: ProtectionModel['type'], area: Area, creator: string): ProtectionModel {
  const p: ProtectionModel = { type, area, description: '', warningOnly: false, editors: null, domainEdit: true, unprotected: [], creator };
  addProtection(wb, p);
  return p;
}
export function removeProtection(wb: WorkbookCore, p: ProtectionModel): void {
  const l = registry.get(wb);
  if (l && l.includes(p)) l.splice(l.indexOf(p), 1);
}

function overlaps(a: Area, b: Area): boolean {
  const x = liveArea(a);
  const y = liveArea(b);
  return x.sheet === y.sheet && x.r1 <= y.r2 && y.r1 <= x.r2 && x.c1 <= y.c2 && y.c1 <= x.c2;
}
function inside(a: Area, b: Area): boolean {
  const x = liveArea(a);
  const y = liveArea(b);
  return x.sheet === y.sheet && x.r1 >= y.r1 && x.r2 <= y.r2 && x.c1 >= y.c1 && x.c2 <= y.c2;
}

/** Whether `user` may edit under p (the owner always may). */
export function mayEdit(wb: WorkbookCore, p: ProtectionModel, user: string): boolean {
  return p.warningOnly || p.editors === null || user === wb.owner || p.editors.has(user);
}

/** Throws Google's message when the running user may not write into `area`. */
export function checkEditable(ctx: Ctx, area: Area): void {
  const wb = ctx.wb;
  const l = registry.get(wb);
  if (!l || l.length === 0) return;
  const user = ctx.state.current?.user ?? wb.owner;
  for (const p of protectionsOf(wb)) {
    if (!overlaps(p.area, area) || mayEdit(wb, p, user)) continue;
    if (p.type === 'SHEET' && p.unprotected.some((u) => inside(area, u))) continue;
    throw ctx.error(PROTECTED_MESSAGE);
  }
}

// ---- Protection -----------------------------------------------------------------------------------

export class ProtectionImpl {
  constructor(
    private readonly s: Objects,
    private readonly p: ProtectionModel,
  ) {}
  toString(): string {
    return 'Protection';
  }
  private get ctx() {
    return this.s.ctx;
  }
  private emails(x: unknown, method: string): string[] {
    const one = (v: unknown): string => {
      if (typeof v === 'string') return v;
      if (v instanceof UserImpl) return v.getEmail();
      if (v && typeof (v as { getEmail?: unknown }).getEmail === 'function') return String((v as { getEmail(): string }).getEmail());
      throw this.ctx.error(`The parameters (${typeName(v)}) don't match the method signature for SpreadsheetApp.Protection.${method}.`);
    };
    return Array.isArray(x) ? x.map(one) : [one(x)];
  }
  /** The list Google starts from when the script first changes editors: the owner and the protection's creator. */
  private editors(): Set<string> {
    if (!this.p.editors) this.p.editors = new Set([this.ctx.wb.owner, this.p.creator]);
    return this.p.editors;
  }
  addEditor(emailOrUser: unknown): ProtectionImpl {
    this.ctx.mutate('addEditor');
    for (const e of this.emails(emailOrUser, 'addEditor')) this.editors().add(e);
    return this;
  }
  addEditors(emails: string[]): ProtectionImpl {
    this.ctx.mutate('addEditors');
    for (const e of this.emails(emails, 'addEditors')) this.editors().add(e);
    return this;
  }
  /** Chosen: the owner and the user running the script stay editors (nobody can lock themselves out). */
  removeEditor(emailOrUser: unknown): ProtectionImpl {
    return this.drop('removeEditor', emailOrUser);
  }
  removeEditors(emailsOrUsers: unknown[]): ProtectionImpl {
    return this.drop('removeEditors', emailsOrUsers);
  }
  private drop(method: string, x: unknown): ProtectionImpl {
    this.ctx.mutate(method);
    const me = this.ctx.state.current?.user ?? this.ctx.wb.owner;
    const set = this.editors();
    for (const e of this.emails(x, method)) if (e !== this.ctx.wb.owner && e !== me) set.delete(e);
    return this;
  }
  getEditors(): UserImpl[] {
    this.ctx.call();
    const list = this.p.editors ? [...this.p.editors] : [...new Set([this.ctx.wb.owner, this.p.creator])];
    return this.ctx.arr(list.map((e) => new UserImpl(e)));
  }
  canEdit(): boolean {
    this.ctx.call();
    return mayEdit(this.ctx.wb, this.p, this.ctx.state.current?.user ?? this.ctx.wb.owner);
  }
  canDomainEdit(): boolean {
    this.ctx.call();
    return this.p.domainEdit;
  }
  setDomainEdit(editable: boolean): ProtectionImpl {
    this.ctx.mutate('setDomainEdit');
    this.p.domainEdit = !!editable;
    if (!editable) this.editors();
    return this;
  }
  getDescription(): string {
    this.ctx.call();
    return this.p.description;
  }
  setDescription(description: string): ProtectionImpl {
    this.ctx.mutate('setDescription');
    this.p.description = String(description);
    return this;
  }
  isWarningOnly(): boolean {
    this.ctx.call();
    return this.p.warningOnly;
  }
  setWarningOnly(warningOnly: boolean): ProtectionImpl {
    this.ctx.mutate('setWarningOnly');
    this.p.warningOnly = !!warningOnly;
    return this;
  }
  getProtectionType(): string {
    this.ctx.call();
    return this.p.type;
  }
  getRange(): RangeObject {
    this.ctx.call();
    return this.s.rangeOf(this.p.area);
  }
  getRangeName(): string | null {
    this.ctx.call();
    return null;
  }
  getUnprotectedRanges(): RangeObject[] {
    this.ctx.call();
    return this.ctx.arr(this.p.unprotected.map((a) => this.s.rangeOf(a)));
  }
  /** Google: only for sheet protections (chosen wording for a range protection). */
  setUnprotectedRanges(ranges: RangeObject[]): ProtectionImpl {
    this.ctx.mutate('setUnprotectedRanges');
    if (this.p.type !== 'SHEET') throw this.ctx.error('Unprotected ranges can only be set on a sheet protection.');
    this.p.unprotected = (Array.isArray(ranges) ? ranges : []).map((r) => {
      if (!this.s.isRange(r))
        throw this.ctx.error(
          `The parameters (${typeName(ranges)}) don't match the method signature for SpreadsheetApp.Protection.setUnprotectedRanges.`,
        );
      return r._area();
    });
    return this;
  }
  remove(): void {
    this.ctx.mutate('remove');
    removeProtection(this.ctx.wb, this.p);
  }
}
