/**
 * LockService: script, user and document locks shared by all executions of this runtime.
 * Waiting advances the VIRTUAL clock (and so counts against the execution's time limit).
 * Tests play "another execution" holding a lock with LockTable.hold().
 * Chosen: a lock is re-entrant within one execution (any Lock object of that execution holds it),
 * and every lock an execution holds is released when it ends, as Google releases them at script end.
 */
import type { Execution, RuntimeState } from './execution';
import { gasError, signatureError } from './realm';
import { requireService } from './permissions';

export const LOCK_TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

/** Someone other than the running execution: releases at `releaseAt` (virtual ms) or when released by hand. */
export interface ForeignHold {
  releaseAt: number | null;
  release(): void;
}

type Holder = { kind: 'execution'; execution: Execution } | { kind: 'foreign'; hold: ForeignHold };

class Slot {
  holder: Holder | null = null;
  freeNow(now: number): boolean {
    const h = this.holder;
    if (h && h.kind === 'foreign' && h.hold.releaseAt !== null && h.hold.releaseAt <= now) this.holder = null;
    return this.holder === null;
  }
}

export type LockScope = 'script' | 'document' | { user: string };

export class LockTable {
  private readonly script = new Slot();
  private readonly document: Slot | null;
  private readonly users = new Map<string, Slot>();
  constructor(
    private readonly state: RuntimeState,
    bound: boolean,
  ) {
    this.document = bound ? new Slot() : null;
  }

  slot(scope: LockScope): Slot | null {
    if (scope === 'script') return this.script;
    if (scope === 'document') return this.document;
    let s = this.users.get(scope.user);
    if (!s) this.users.set(scope.user, (s = new Slot()));
    return s;
  }

  /** Test helper: another execution holds the lock, for `forMs` of virtual time or until release(). */
  hold(scope: LockScope, opts: { forMs?: number } = {}): ForeignHold {
    const slot = this.slot(scope);
    if (!slot) throw new Error('No document lock: the runtime is not bound to a document.');
    if (!slot.freeNow(this.state.clock.now())) throw new Error('Lock is already held.');
    const hold: ForeignHold = {
      releaseAt: opts.forMs === undefined ? null : this.state.clock.now() + opts.forMs,
      release: () => {
        if (slot.holder?.kind === 'foreign' && slot.holder.hold === hold) slot.holder = null;
      },
    };
    slot.holder = { kind: 'foreign', hold };
    return hold;
  }

  /** Releases every lock held by the execution (called when it ends). */
  releaseAll(execution: Execution): void {
    for (const s of [this.script, this.document, ...this.users.values()]) {
      if (s && s.holder?.kind === 'execution' && s.holder.execution === execution) s.holder = null;
    }
  }

  /** Whether the scope's lock is held by anyone now. */
  isHeld(scope: LockScope): boolean {
    const s = this.slot(scope);
    return !!s && !s.freeNow(this.state.clock.now());
  }
}

class LocalLock {
  constructor(
    private readonly state: RuntimeState,
    private readonly slot: Slot,
  ) {}

  tryLock(timeoutInMillis: number): boolean {
    return this.acquire('tryLock', [...arguments]);
  }
  private acquire(method: string, args: unknown[]): boolean {
    const timeoutInMillis = args[0];
    requireService(this.state, 'LockService');
    // Both take exactly one number (Google: no default timeout).
    if (args.length !== 1 || typeof timeoutInMillis !== 'number') throw signatureError(this.state, `LockService.Lock.${method}`, args);
    this.state.serviceCall();
    const me = this.state.exec();
    // Google: a negative time-out never takes the lock, even a free one (tryLock(-100) is false,
    // waitLock(-100) throws "Lock timeout"; gas-fakes test/testlock.js "Lock timeout failures").
    if (timeoutInMillis < 0) return false;
    const timeout = Number(timeoutInMillis) || 0;
    const s = this.slot;
    const now = this.state.clock.now();
    if (s.freeNow(now) || (s.holder?.kind === 'execution' && s.holder.execution === me)) {
      s.holder = { kind: 'execution', execution: me };
      return true;
    }
    const h = s.holder;
    if (h && h.kind === 'foreign' && h.hold.releaseAt !== null && h.hold.releaseAt - now <= timeout) {
      this.state.charge(h.hold.releaseAt - now);
      s.holder = { kind: 'execution', execution: me };
      return true;
    }
    // Waits the whole timeout in vain (an outer execution suspended under a custom function never releases).
    this.state.charge(timeout);
    return false;
  }
  waitLock(timeoutInMillis: number): void {
    void timeoutInMillis;
    if (!this.acquire('waitLock', [...arguments])) throw gasError(this.state, LOCK_TIMEOUT_MESSAGE);
  }
  releaseLock(): void {
    requireService(this.state, 'LockService');
    const me = this.state.exec();
    if (this.slot.holder?.kind === 'execution' && this.slot.holder.execution === me) this.slot.holder = null;
  }
  hasLock(): boolean {
    requireService(this.state, 'LockService');
    const me = this.state.exec();
    return this.slot.holder?.kind === 'execution' && this.slot.holder.execution === me;
  }
}

export function createLockService(state: RuntimeState, table: LockTable) {
  return {
    getScriptLock() {
      requireService(state, 'LockService');
      return new LocalLock(state, table.slot('script')!);
    },
    getUserLock() {
      requireService(state, 'LockService');
      return new LocalLock(state, table.slot({ user: state.exec().user })!);
    },
    /** null when the script is not bound to a document. */
    getDocumentLock() {
      requireService(state, 'LockService');
      const s = table.slot('document');
      // Also null in a time-driven trigger that has no active document (index.ts triggerDocument).
      return s && state.hasDocument() ? new LocalLock(state, s) : null;
    },
  };
}
