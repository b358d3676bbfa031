/**
 * The CHANGELOG.md entry of a release, from the commits since the last tag (git's own record, so
 * nothing is kept by hand). Without a tag (the first release) the whole history is summarised: its
 * span, the parts of the project the commits changed (folders, from the files each commit touched)
 * with their counts, and the branches merged; after a tag, every commit is listed by its subject's
 * first sentence.
 */
import { execFileSync } from 'node:child_process';

export interface Commit {
  hash: string;
  date: string;
  subject: string;
  files: string[];
  /** A merge (more than one parent). */
  merge: boolean;
}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The newest tag reachable from HEAD, or null when the repository has none. */
export function lastTag(cwd: string): string | null {
  try {
    return (
      execFileSync('git', ['describe', '--tags', '--abbrev=0'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() ||
      null
    );
  } catch {
    return null;
  }
}

/** Commits after `since` (a tag) up to HEAD, oldest first; all of them when `since` is null. */
export function commitsSince(cwd: string, since: string | null): Commit[] {
  const out = git(cwd, [
    'log',
    '--reverse',
    '--date=short',
    '--name-only',
    '--format=%x1e%h%x1f%ad%x1f%p%x1f%s',
    ...(since ? [`${since}..HEAD`] : []),
  ]);
  return out
    .split('\x1e')
    .filter((c) => c.trim())
    .map((block) => {
      const [head, ...files] = block.split('\n');
      const [hash, date, parents, subject] = head.split('\x1f');
      return { hash, date, subject, files: files.filter(Boolean), merge: parents.trim().split(' ').length > 1 };
    });
}

/** A subject's first sentence, cut at `max` characters. */
export function firstSentence(subject: string, max = 140): string {
  const m = /^(.+?[.;])(\s|$)/.exec(subject);
  const s = (m ? m[1] : subject).replace(/[.;]$/, '');
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/** The part of the project a file is in: two folders deep under src/, emulator/, tools/ and test/, else its top folder (or "top-level files"). */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return 'top-level files';
  if (parts[0] === 'src' && parts[1] === 'app' && parts.length > 3) return `src/app/${parts[2]}/`;
  const deep = ['src', 'emulator', 'tools', 'test'].includes(parts[0]) && parts.length > 2;
  return deep ? `${parts[0]}/${parts[1]}/` : `${parts[0]}/`;
}

const MERGE = /^Merge branch '([^']+)'/;

/** The entry's Markdown: a heading with version and date, then the list or the summary. */
export function changelogEntry(version: string, date: string, commits: readonly Commit[], since: string | null): string {
  const head = `## ${version} — ${date}\n\n`;
  if (!commits.length) return `${head}No commits since ${since}.\n`;
  const own = commits.filter((c) => !c.merge);
  if (since)
    return `${head}${own.length} commit${own.length === 1 ? '' : 's'} since ${since}:\n\n${own.map((c) => `- ${firstSentence(c.subject)} (${c.hash})`).join('\n')}\n`;
  const first = commits[0];
  const last = commits[commits.length - 1];
  const areas = new Map<string, number>();
  for (const c of own) for (const a of new Set(c.files.map(areaOf))) areas.set(a, (areas.get(a) ?? 0) + 1);
  const named = [...areas].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const branches = commits
    .filter((c) => c.merge)
    .map((c) => MERGE.exec(c.subject)?.[1])
    .filter((b): b is string => !!b);
  const lines = [
    `The first numbered release: ${own.length} commits from ${first.hash} (${first.date}) to ${last.hash} (${last.date}), summarised (no earlier tag).`,
    '',
    'Commits per part of the project (a commit counts once in each part it changed):',
    '',
    ...named.slice(0, 25).map(([a, n]) => `- ${a}: ${n}`),
    ...(named.length > 25
      ? [
          `- ${named.length - 25} smaller parts: ${named
            .slice(25)
            .map(([a]) => a)
            .join(', ')}`,
        ]
      : []),
  ];
  const merges = commits.length - own.length;
  if (merges) lines.push('', `${merges} merges${branches.length ? `, of the branches ${[...new Set(branches)].join(', ')}` : ''}.`);
  return `${head}${lines.join('\n')}\n`;
}

const TITLE = '# Changelog\n\nEach numbered release of the add-on, newest first (written by `npm run release`).\n';

/** CHANGELOG.md with `entry` put above the previous entries (a new file when there is none). */
export function withEntry(previous: string | null, entry: string): string {
  const rest = previous ? previous.slice(previous.indexOf('\n## ') + 1 || previous.length) : '';
  return `${TITLE}\n${entry}${rest && rest.startsWith('## ') ? `\n${rest}` : ''}`;
}
