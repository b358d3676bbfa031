/**
 * Range and sheet protection (Range.protect, Sheet.protect, getProtections) and the check every
 * content write makes. Google documents that a new protection mirrors the spreadsheet's own
 * permissions until the script changes its editors, so it restricts nobody before that; afterwards
 * a user who is neither the owner nor a listed editor gets Google's message on a write.
 */
import type { Ctx } from './context';
import { Area, liveArea, WorkbookCore } from './model';

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
