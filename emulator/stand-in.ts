/**
 * The one shape every stand-in starts and stops in: an async start answers a handle with `url`
 * (where it serves) and `stop()`, which resolves only once what it started has ended (its port is
 * closed, its child process has exited, its worker thread is gone), and which can be called again
 * (every later call answers the first call's promise). Also the pieces the stand-ins build it from:
 * a child process that prints its address, and an http server.
 */
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';

/** Something started that must be stopped: `stop()` resolves once it has ended, and is idempotent. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** A stand-in that serves: where (http://127.0.0.1:<port>, with a path for a webhook receiver), and how to stop it. */
export interface StandIn extends Stoppable {
  readonly url: string;
}

/** `stop` made idempotent: the first call runs it, every call answers that first call's promise. */
export function stopOnce(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= stop();
    return stopping;
  };
}

/** Closes `server` (its idle kept-alive connections at once) and resolves once its port is closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    if (!server.listening) return done();
    server.close(() => done());
    server.closeIdleConnections();
  });
}

/** A child process that printed its address; its output so far, for failing tests' messages. */
export interface ListeningChild {
  url: string;
  /** stdout and stderr as they came. */
  output(): string;
  stdout(): string;
  stderr(): string;
}

/** Reads the address a child prints: `listening on http://…` (the service's main.ts, the example webhook receiver). */
export const LISTENING_ON = (out: string): string | undefined => /listening on (http:\/\/\S+)/.exec(out)?.[1];

/** Reads `PORT <n>` (the test proxies and fixture servers): http://127.0.0.1:<n>. */
export const PRINTED_PORT = (out: string): string | undefined => {
  const m = /PORT (\d+)/.exec(out);
  return m ? `http://127.0.0.1:${m[1]}` : undefined;
};

/**
 * Resolves once `child` prints its address on stdout (read by `address`). Rejects with its output
 * when it exits first or does not listen within `timeoutMs` (then it is killed). Its output keeps
 * being read, so a chatty child never blocks on a full pipe (an output not piped is not read).
 */
export function untilListening(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  address: (stdout: string) => string | undefined = LISTENING_ON,
): Promise<ListeningChild> {
  let all = '';
  let out = '';
  let err = '';
  const read: ListeningChild = { url: '', output: () => all, stdout: () => out, stderr: () => err };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${all}`));
    }, timeoutMs);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      all += d.toString();
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      all += d.toString();
      const url = read.url ? undefined : address(out);
      if (url) {
        clearTimeout(timer);
        read.url = url;
        resolve(read);
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (code ${code}) before listening:\n${all}`));
    });
  });
}

/** Sends `signal` and resolves once the child has exited (at once when it already has). */
export function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill(signal);
  });
}

/** A child's stop: SIGTERM, SIGKILL after `graceMs` if it has not exited by then; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs = 5000): () => Promise<void> {
  return stopOnce(() => {
    setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    return ended(child, 'SIGTERM');
  });
}

/** A child process that prints its address, as a stand-in: started once it listens, stopped by SIGTERM. */
export async function childStandIn(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  address?: (stdout: string) => string | undefined,
): Promise<StandIn & ListeningChild> {
  const c = await untilListening(child, what, timeoutMs, address);
  return { ...c, stop: stopChild(child) };
}
