/**
 * What a bench file does when it is run on its own (`tsx bench/<file>.ts`): runs its work, prints the
 * figures one a line, and on an error prints it and exits failing (process.exit, not exitCode: a
 * failed benchmark may leave a spawned service or worker that would keep the process alive).
 */
export function runAlone(bench: () => Promise<Record<string, number | string>>): void {
  runMain(async () => {
    for (const [k, v] of Object.entries(await bench())) console.log(`${k}: ${v}`);
  });
}

/** Runs a script's main work, handling its rejection (no promise left floating). */
export function runMain(work: () => Promise<void>): void {
  work().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
