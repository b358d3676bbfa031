/**
 * The sidebar's contract with getHelp: types only (nothing runs, nothing is bundled). See
 * src/app/protocol.ts for the rules every server function follows.
 */

/** The Help view: one step of using the add-on per entry, in the order a seller meets them. */
export interface HelpView {
  steps: Array<{ title: string; text: string }>;
}

export interface HelpServerFunctions {
  /** The Help view's words, so that they cost the sidebar page nothing; no service call, no document read. */
  getHelp(): HelpView;
}
