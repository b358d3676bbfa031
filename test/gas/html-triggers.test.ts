import { evalIn, fixtureRuntime, thrown } from './helpers';

describe('HtmlService', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test('createHtmlOutput: content, append, title, size, sandbox and X-Frame-Options modes', () => {
    const r = evalIn(
      rt,
      "var o = HtmlService.createHtmlOutput('<b>a</b>').append('<i>b</i>').setTitle('Scan').setWidth(300).setHeight(200).setSandboxMode(HtmlService.SandboxMode.IFRAME).setXFrameOptionsMode(HtmlService.XFrameOptionsMode.ALLOWALL); return [o.getContent(), o.getTitle(), o.getWidth(), o.getHeight()];",
    );
    expect(r).toEqual(['<b>a</b><i>b</i>', 'Scan', 300, 200]);
  });

  test('createHtmlOutputFromFile reads <name>.html next to the script (with or without .html)', () => {
    expect(evalIn(rt, "return HtmlService.createHtmlOutputFromFile('page').getContent()")).toBe('<p>static page</p>\n');
    expect(evalIn(rt, "return HtmlService.createHtmlOutputFromFile('page.html').getContent()")).toBe('<p>static page</p>\n');
  });

  test("a missing file throws Google's message", () => {
    expect(thrown(() => evalIn(rt, "HtmlService.createHtmlOutputFromFile('Nope')"))).toBe('No HTML file named Nope was found.');
  });

  test("templates: <? ?> code, <?= ?> HTML-escaped, <?!= ?> raw (calling the script's own functions)", () => {
    const html = evalIn(
      rt,
      "var t = HtmlService.createTemplateFromFile('template'); t.title = '<Tom & \"Jerry\">'; t.items = ['a<b', 'c']; return t.evaluate().getContent();",
    );
    expect(html).toBe('<h1>&lt;Tom &amp; &quot;Jerry&quot;&gt;</h1><li>a&lt;b</li><li>c</li><p>static page</p>\n\n');
  });

  test('createTemplate from a string; getRawContent', () => {
    expect(
      evalIn(rt, "var t = HtmlService.createTemplate('<?= 1 + 2 ?>!'); return [t.evaluate().getContent(), t.getRawContent()]"),
    ).toEqual(['3!', '<?= 1 + 2 ?>!']);
  });
});

describe('ScriptApp: triggers', () => {
  test('AuthMode enum matches what triggers receive', async () => {
    const rt = fixtureRuntime();
    expect(
      evalIn(
        rt,
        'return [ScriptApp.AuthMode.NONE, ScriptApp.AuthMode.LIMITED, ScriptApp.AuthMode.FULL, ScriptApp.AuthMode.CUSTOM_FUNCTION]',
      ),
    ).toEqual(['NONE', 'LIMITED', 'FULL', 'CUSTOM_FUNCTION']);
    await rt.stop();
  });

  test('newTrigger().timeBased().everyHours(1).create(); getProjectTriggers; Trigger getters; deleteTrigger', async () => {
    const rt = fixtureRuntime();
    const r = evalIn(
      rt,
      "var t = ScriptApp.newTrigger('tick').timeBased().everyHours(1).create(); var all = ScriptApp.getProjectTriggers(); return [all.length, all[0].getHandlerFunction(), all[0].getUniqueId() === t.getUniqueId(), String(t.getEventType()), String(t.getTriggerSource()), ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).length];",
    );
    // getUserTriggers(spreadsheet) lists the triggers whose source is the document; Google's page does
    // not say it lists a clock trigger, so here it does not (chosen); getProjectTriggers does.
    expect(r).toEqual([1, 'tick', true, 'CLOCK', 'CLOCK', 0]);
    evalIn(rt, 'ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); })');
    expect(rt.triggers.records).toHaveLength(0);
    await rt.stop();
  });

  test('add-on: everyMinutes is refused (at most once an hour)', async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyMinutes(30).create()"))).toBe(
      'The recurrence interval for an Add-on trigger must be at least one hour.',
    );
    await rt.stop();
  });

  test("everyHours accepts only Google's intervals, so less than an hour is impossible (message chosen)", async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(0.5).create()"))).toBe(
      'Invalid argument: hours. Allowed values are 1, 2, 4, 6, 8 and 12.',
    );
    await rt.stop();
  });

  test('not an add-on: everyMinutes is allowed', async () => {
    const rt = fixtureRuntime({ addOn: false });
    expect(evalIn(rt, "return ScriptApp.newTrigger('tick').timeBased().everyMinutes(5).create().getHandlerFunction()")).toBe('tick');
    await rt.stop();
  });

  test("add-on: one trigger of each type per user per document (Google's message)", async () => {
    const rt = fixtureRuntime();
    evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(2).create()");
    expect(thrown(() => evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().after(1000).create()"))).toBe(
      'This add-on has created too many time-based triggers in this document for this Google user account.',
    );
    // Another user may have their own.
    expect(
      evalIn(rt, "return ScriptApp.newTrigger('tick').timeBased().everyHours(1).create().getHandlerFunction()", null, {
        user: 'editor@example.com',
      }),
    ).toBe('tick');
    expect(evalIn(rt, 'return ScriptApp.getProjectTriggers().length', null, { user: 'editor@example.com' })).toBe(1);
    await rt.stop();
  });

  test("add-on: a second trigger of a non-time type is refused in words naming that type (wording chosen after Google's time-based one)", async () => {
    const rt = fixtureRuntime();
    const ss = 'SpreadsheetApp.getActiveSpreadsheet()';
    evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onEdit().create()`);
    expect(thrown(() => evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onEdit().create()`))).toBe(
      'This add-on has created too many edit triggers in this document for this Google user account.',
    );
    evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onOpen().create()`);
    expect(thrown(() => evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onOpen().create()`))).toBe(
      'This add-on has created too many open triggers in this document for this Google user account.',
    );
    evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onChange().create()`);
    expect(thrown(() => evalIn(rt, `ScriptApp.newTrigger('tick').forSpreadsheet(${ss}).onChange().create()`))).toBe(
      'This add-on has created too many change triggers in this document for this Google user account.',
    );
    // One of each type is fine; a time-driven one still fits beside them.
    evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(1).create()");
    expect(rt.triggers.records.map((t) => t.eventType)).toEqual(['ON_EDIT', 'ON_OPEN', 'ON_CHANGE', 'CLOCK']);
    await rt.stop();
  });

  test('20 triggers per user per script', async () => {
    const rt = fixtureRuntime({ addOn: false });
    const msg = thrown(() => evalIn(rt, "for (var i = 0; i < 21; i++) ScriptApp.newTrigger('tick').timeBased().everyHours(1).create();"));
    expect(msg).toBe('This script has too many triggers. Triggers must be deleted from the script before more can be added.');
    expect(rt.triggers.records).toHaveLength(20);
    await rt.stop();
  });

  test('runDueTriggers fires due time-driven triggers on the virtual clock, each as its own execution', async () => {
    const rt = fixtureRuntime();
    evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(1).create()");
    expect(rt.runDueTriggers()).toEqual([]);
    rt.advance(3600 * 1000);
    const fired = rt.runDueTriggers();
    expect(fired).toMatchObject([{ handler: 'tick', user: 'owner@example.com', ok: true }]);
    expect(rt.properties.script.get('ticks')).toBe('1');
    expect(rt.properties.script.get('lastUid')).toBe(fired[0].uid);
    expect(rt.executions.at(-1)).toMatchObject({ functionName: 'tick', kind: 'installable-trigger', authMode: 'FULL' });
    // Several periods later it fires once (no catching up), then again an hour on.
    rt.advance(5 * 3600 * 1000);
    expect(rt.runDueTriggers()).toHaveLength(1);
    expect(rt.runDueTriggers()).toHaveLength(0);
    rt.advance(3600 * 1000);
    expect(rt.runDueTriggers()).toHaveLength(1);
    expect(rt.properties.script.get('ticks')).toBe('3');
    await rt.stop();
  });

  test('after(ms) fires once and is then removed (chosen); a failing handler is recorded, not thrown', async () => {
    const rt = fixtureRuntime();
    evalIn(rt, "ScriptApp.newTrigger('failingTick').timeBased().after(60 * 1000).create()");
    rt.advance(61 * 1000);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'failingTick', ok: false, error: 'tick failed' }]);
    expect(rt.triggers.records).toHaveLength(0);
    await rt.stop();
  });

  test('at(date) fires at that virtual time', async () => {
    const rt = fixtureRuntime();
    evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().at(new Date(args)).create()", rt.state.clock.now() + 10 * 60 * 1000);
    rt.advance(9 * 60 * 1000);
    expect(rt.runDueTriggers()).toHaveLength(0);
    rt.advance(2 * 60 * 1000);
    expect(rt.runDueTriggers()).toHaveLength(1);
    await rt.stop();
  });
});
