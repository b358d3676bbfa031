import { evalIn, fixtureRuntime, thrown } from './helpers';

describe('PropertiesService', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('script, document and user stores: set/get/getProperties/getKeys/delete, kept across executions', () => {
    evalIn(
      rt,
      "PropertiesService.getScriptProperties().setProperty('a', '1').setProperty('b', 2); PropertiesService.getDocumentProperties().setProperty('d', 'doc');",
    );
    expect(
      evalIn(
        rt,
        "var p = PropertiesService.getScriptProperties(); return [p.getProperty('a'), p.getProperty('b'), p.getProperty('missing'), p.getKeys().sort(), p.getProperties()];",
      ),
    ).toEqual(['1', '2', null, ['a', 'b'], { a: '1', b: '2' }]);
    expect(rt.properties.document!.toObject()).toEqual({ d: 'doc' });
    evalIn(rt, "PropertiesService.getScriptProperties().deleteProperty('a')");
    expect(rt.properties.script.toObject()).toEqual({ b: '2' });
    evalIn(rt, 'PropertiesService.getScriptProperties().deleteAllProperties()');
    expect(rt.properties.script.toObject()).toEqual({});
  });

  test('setProperties(obj) merges; setProperties(obj, true) deletes all others', () => {
    evalIn(rt, "var p = PropertiesService.getScriptProperties(); p.setProperties({ x: '1', y: '2' }); p.setProperties({ z: '3' });");
    expect(rt.properties.script.toObject()).toEqual({ x: '1', y: '2', z: '3' });
    evalIn(rt, "PropertiesService.getScriptProperties().setProperties({ only: 'me' }, true);");
    expect(rt.properties.script.toObject()).toEqual({ only: 'me' });
  });

  test('user properties are per user', () => {
    evalIn(rt, "PropertiesService.getUserProperties().setProperty('apiKey', 'owner-key')");
    evalIn(rt, "PropertiesService.getUserProperties().setProperty('apiKey', 'editor-key')", null, { user: 'editor@example.com' });
    expect(rt.properties.user('owner@example.com').get('apiKey')).toBe('owner-key');
    expect(evalIn(rt, "return PropertiesService.getUserProperties().getProperty('apiKey')", null, { user: 'editor@example.com' })).toBe(
      'editor-key',
    );
    expect(
      evalIn(rt, "return PropertiesService.getUserProperties().getProperty('apiKey')", null, { user: 'other@example.com' }),
    ).toBeNull();
  });

  test('a value over 9 KB throws and nothing is written (message chosen)', () => {
    const msg = thrown(() =>
      evalIn(rt, "PropertiesService.getScriptProperties().setProperties({ ok: 'fine', big: new Array(9 * 1024 + 2).join('x') })"),
    );
    expect(msg).toBe('Argument too large: value');
    expect(rt.properties.script.get('ok')).toBeNull();
    expect(evalIn(rt, "PropertiesService.getScriptProperties().setProperty('edge', new Array(9 * 1024 + 1).join('x')); return 'ok'")).toBe(
      'ok',
    );
  });

  test("a store over 500 KB throws Google's quota message", () => {
    const msg = thrown(() =>
      evalIn(
        rt,
        "var p = PropertiesService.getScriptProperties(); for (var i = 0; i < 60; i++) p.setProperty('k' + i, new Array(9000).join('x'));",
      ),
    );
    expect(msg).toBe('You have exceeded the property storage quota. Please remove some properties and try again.');
    expect(rt.properties.script.bytes()).toBeLessThanOrEqual(500 * 1024);
  });

  test('reads and writes advance the virtual clock by the modelled cost', () => {
    const t0 = rt.state.clock.now();
    evalIn(rt, "var p = PropertiesService.getScriptProperties(); p.setProperty('t', '1'); p.getProperty('t');");
    expect(rt.state.clock.now() - t0).toBe(
      rt.state.cost.executionStartMs + rt.state.cost.propertiesWriteMs + rt.state.cost.propertiesReadMs,
    );
  });
});

describe('CacheService', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('put/get/getAll/putAll/remove/removeAll on the script cache; values are strings', () => {
    expect(
      evalIn(
        rt,
        "var c = CacheService.getScriptCache(); c.put('a', 1); c.putAll({ b: 'B', c: 'C' }); c.remove('c'); return [c.get('a'), c.getAll(['a', 'b', 'c', 'zz'])];",
      ),
    ).toEqual(['1', { a: '1', b: 'B' }]);
    evalIn(rt, "CacheService.getScriptCache().removeAll(['a', 'b'])");
    expect(rt.caches.script.keys()).toEqual([]);
  });

  test('entries expire after 600 s by default, on the virtual clock', () => {
    evalIn(rt, "CacheService.getScriptCache().put('e', 'v')");
    rt.advance(599 * 1000 - rt.state.cost.cacheReadMs - rt.state.cost.executionStartMs);
    expect(evalIn(rt, "return CacheService.getScriptCache().get('e')")).toBe('v');
    rt.advance(2000);
    expect(evalIn(rt, "return CacheService.getScriptCache().get('e')")).toBeNull();
  });

  test('a given expiry is honoured; more than 21600 s is refused (chosen: Google documents the maximum)', () => {
    evalIn(rt, "CacheService.getScriptCache().put('s', 'v', 5)");
    rt.advance(6000);
    expect(evalIn(rt, "return CacheService.getScriptCache().get('s')")).toBeNull();
    expect(thrown(() => evalIn(rt, "CacheService.getScriptCache().put('s', 'v', 21601)"))).toBe('Argument too large: expirationInSeconds');
    expect(evalIn(rt, "CacheService.getScriptCache().put('s', 'v', 21600); return 'ok'")).toBe('ok');
  });

  test("a key over 250 characters (Google's message) or a value over 100 KB (message chosen) throws", () => {
    expect(thrown(() => evalIn(rt, "CacheService.getScriptCache().put(new Array(252).join('k'), 'v')"))).toBe('Argument too large: key');
    expect(thrown(() => evalIn(rt, "CacheService.getScriptCache().put('k', new Array(100 * 1024 + 2).join('v'))"))).toBe(
      'Argument too large: value',
    );
    expect(thrown(() => evalIn(rt, "CacheService.getScriptCache().putAll({ fine: 'x', big: new Array(100 * 1024 + 2).join('v') })"))).toBe(
      'Argument too large: value',
    );
    expect(rt.caches.script.get('fine')).toBeNull();
  });

  test('at most 1,000 items: past that the 900 farthest from expiration stay (Cache reference, put)', () => {
    evalIn(rt, "var c = CacheService.getScriptCache(); var o = {}; for (var i = 0; i < 1005; i++) o['n' + i] = String(i); c.putAll(o);");
    const keys = rt.caches.script.keys();
    expect(keys.length).toBe(900);
    expect(keys).not.toContain('n0');
    expect(keys).toContain('n1004');
  });

  test('user caches are per user; the document cache exists for a bound script', () => {
    evalIn(rt, "CacheService.getUserCache().put('u', 'mine'); CacheService.getDocumentCache().put('d', 'doc');");
    expect(evalIn(rt, "return CacheService.getUserCache().get('u')", null, { user: 'editor@example.com' })).toBeNull();
    expect(evalIn(rt, "return CacheService.getUserCache().get('u')")).toBe('mine');
    expect(evalIn(rt, "return CacheService.getDocumentCache().get('d')", null, { user: 'editor@example.com' })).toBe('doc');
  });
});

describe('LockService', () => {
  test('tryLock succeeds on a free lock; hasLock/releaseLock; the lock is freed when the execution ends', async () => {
    const rt = fixtureRuntime();
    expect(
      evalIn(
        rt,
        'var l = LockService.getScriptLock(); var a = l.tryLock(1000); var h = l.hasLock(); l.releaseLock(); return [a, h, l.hasLock()];',
      ),
    ).toEqual([true, true, false]);
    evalIn(rt, 'LockService.getScriptLock().waitLock(1000)');
    expect(rt.locks.isHeld('script')).toBe(false);
    await rt.stop();
  });

  test('held by another execution: tryLock waits its timeout on the virtual clock and returns false', async () => {
    const rt = fixtureRuntime();
    const hold = rt.locks.hold('script');
    const t0 = rt.state.clock.now();
    expect(evalIn(rt, 'return LockService.getScriptLock().tryLock(5000)')).toBe(false);
    expect(rt.state.clock.now() - t0).toBeGreaterThanOrEqual(5000);
    hold.release();
    expect(evalIn(rt, 'return LockService.getScriptLock().tryLock(5000)')).toBe(true);
    await rt.stop();
  });

  test("waitLock throws Google's message when the lock stays held", async () => {
    const rt = fixtureRuntime();
    rt.locks.hold('document');
    expect(thrown(() => evalIn(rt, 'LockService.getDocumentLock().waitLock(2000)'))).toBe(
      'Lock timeout: another process was holding the lock for too long.',
    );
    await rt.stop();
  });

  test('a lock released by the other execution within the timeout is acquired after waiting that long', async () => {
    const rt = fixtureRuntime();
    rt.locks.hold('script', { forMs: 3000 });
    const t0 = rt.state.clock.now();
    expect(evalIn(rt, 'LockService.getScriptLock().waitLock(10000); return "got it"')).toBe('got it');
    // Acquired when the other holder let go, not after the full 10-s timeout.
    const elapsed = rt.state.clock.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    expect(elapsed).toBeLessThan(4000);
    await rt.stop();
  });

  test("tryLock/waitLock take exactly one number: anything else is Google's signature error, and no lock is taken", async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => evalIn(rt, 'LockService.getDocumentLock().waitLock()'))).toBe(
      "The parameters () don't match the method signature for LockService.Lock.waitLock.",
    );
    expect(thrown(() => evalIn(rt, "LockService.getScriptLock().tryLock('5000')"))).toBe(
      "The parameters (String) don't match the method signature for LockService.Lock.tryLock.",
    );
    expect(evalIn(rt, 'var l = LockService.getScriptLock(); try { l.waitLock(); } catch (e) {} return l.hasLock();')).toBe(false);
    await rt.stop();
  });

  test('user locks are per user', async () => {
    const rt = fixtureRuntime();
    rt.locks.hold({ user: 'editor@example.com' });
    expect(evalIn(rt, 'return LockService.getUserLock().tryLock(0)')).toBe(true);
    expect(evalIn(rt, 'return LockService.getUserLock().tryLock(0)', null, { user: 'editor@example.com' })).toBe(false);
    await rt.stop();
  });
});

describe('without a document (standalone script)', () => {
  test('getDocumentProperties, getDocumentCache and getDocumentLock return null', async () => {
    const rt = fixtureRuntime({ bound: false });
    expect(
      evalIn(rt, 'return [PropertiesService.getDocumentProperties(), CacheService.getDocumentCache(), LockService.getDocumentLock()]'),
    ).toEqual([null, null, null]);
    await rt.stop();
  });
});
