import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { evalIn, fixtureRuntime, thrown } from './helpers';

describe('Session', () => {
  const rt = fixtureRuntime();
  afterAll(() => rt.stop());

  test("getActiveUser/getEffectiveUser: the executing user's email", () => {
    expect(
      evalIn(rt, 'return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail()]', null, { user: 'ed@example.com' }),
    ).toEqual(['ed@example.com', 'ed@example.com']);
  });

  test('getScriptTimeZone comes from appsscript.json', () => {
    expect(evalIn(rt, 'return Session.getScriptTimeZone()')).toBe('America/New_York');
  });

  test('getTemporaryActiveUserKey is stable per user and differs between users', () => {
    const a1 = evalIn(rt, 'return Session.getTemporaryActiveUserKey()');
    const a2 = evalIn(rt, 'return Session.getTemporaryActiveUserKey()');
    const b = evalIn(rt, 'return Session.getTemporaryActiveUserKey()', null, { user: 'ed@example.com' });
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
    expect(a1).not.toContain('owner');
  });
});

describe('DriveApp', () => {
  test('createFile(name, content, mimeType) and getFileById; File getters; setTrashed', async () => {
    const rt = fixtureRuntime();
    const r = evalIn(
      rt,
      "var f = DriveApp.createFile('out.csv', 'a,b\\n1,2', MimeType.CSV); var g = DriveApp.getFileById(f.getId()); g.setTrashed(true); return [g.getName(), g.getMimeType(), g.getSize(), g.getBlob().getDataAsString(), /^https:\\/\\/drive.google.com\\/file\\/d\\//.test(g.getUrl()), g.isTrashed()];",
    );
    expect(r).toEqual(['out.csv', 'text/csv', 7, 'a,b\n1,2', true, true]);
    await rt.stop();
  });

  test("createFile(blob) keeps the blob's name and type; files can be mirrored into a folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-drive-'));
    const rt = fixtureRuntime({ driveDir: dir });
    try {
      const id = evalIn(rt, "return DriveApp.createFile(Utilities.newBlob('hello', 'text/plain', 'greeting.txt')).getId()");
      const rec = rt.drive.files.get(id)!;
      expect(rec).toMatchObject({ name: 'greeting.txt', mimeType: 'text/plain' });
      expect(fs.readFileSync(path.join(dir, 'greeting.txt'), 'utf8')).toBe('hello');
    } finally {
      await rt.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('getFileById of an unknown id throws (message chosen, Google-like)', async () => {
    const rt = fixtureRuntime();
    expect(thrown(() => evalIn(rt, "DriveApp.getFileById('nope')"))).toBe(
      'No item with the given ID could be found, or you do not have permission to access it.',
    );
    await rt.stop();
  });
});

describe('Logger and console', () => {
  test('Logger.log with %s formatting, getLog (this execution), clear; console.* captured too', async () => {
    const rt = fixtureRuntime();
    const r = evalIn(
      rt,
      "Logger.log('a=%s b=%s', 1, 'two'); Logger.log({ k: [1] }); var before = Logger.getLog(); Logger.clear(); console.log('c=%s', 3); console.error('bad', 4); return [before, Logger.getLog()];",
    );
    expect(r).toEqual(['a=1 b=two\n{"k":[1]}', '']);
    expect(rt.logs).toEqual(['a=1 b=two', '{"k":[1]}', 'c=3', '[error] bad 4']);
    expect(evalIn(rt, 'return Logger.getLog()')).toBe('');
    await rt.stop();
  });
});

describe('ContentService', () => {
  test('createTextOutput with a mime type', async () => {
    const rt = fixtureRuntime();
    expect(
      evalIn(
        rt,
        "var o = ContentService.createTextOutput('{}').setMimeType(ContentService.MimeType.JSON); return [o.getContent(), String(o.getMimeType())]",
      ),
    ).toEqual(['{}', 'JSON']);
    await rt.stop();
  });
});
