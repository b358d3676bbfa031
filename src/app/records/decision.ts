/**
 * The seller's decision options of a scan (months of cover, share rule, target ROI, largest
 * discount): chosen in New scan, never sent to the service, so the document keeps them per scan
 * (startScan records, the import reads, Delete forgets). A scan started elsewhere gets the defaults.
 */
import { decisionFromRecord, DEFAULT_DECISION, type DecisionOptions } from '../../domain/price-list/decide';
import { decisionKey } from '../../store/keys';

type Properties = GoogleAppsScript.Properties.Properties;

export function recordDecision(props: Properties, scanId: number, o: DecisionOptions): void {
  props.setProperty(decisionKey(scanId), JSON.stringify(o));
}

export function readDecision(props: Properties, scanId: number): DecisionOptions {
  const t = props.getProperty(decisionKey(scanId));
  if (!t) return { ...DEFAULT_DECISION };
  try {
    return decisionFromRecord(JSON.parse(t));
  } catch (_e) {
    return { ...DEFAULT_DECISION };
  }
}

export function forgetDecision(props: Properties, scanId: number): void {
  props.deleteProperty(decisionKey(scanId));
}
