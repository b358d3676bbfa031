/**
 * The CHANGELOG.md entry of a release, from the commits since the last tag (git's own record, so
 * nothing is kept by hand). Without a tag (the first release) the whole history is summarised: its
 * span, the areas the commit subjects name ("Scan Service: …") with their counts, and the branches
 * merged; after a tag, every commit is listed by its subject's first sentence.
 */
import { execFileSync } from 'node:child_process';

export interface Commit {
  hash: string;
  date: string;
  subject: string;
}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The newest tag reachable from HEAD, or null when the repository has none. */
export function lastTag(cwd: string): string | null {
  try {
    return git(cwd, ['describe', '--tags', '--abbrev=0']) || null;
  } catch {
    return null;
  }
}

/** Commits after `since` (a tag) up to HEAD, oldest first; all of them when `since` is null. */
export function commitsSince(cwd: string, since: string | null): Commit[] {
  const out = git(cwd, ['log', '--reverse', '--date=short', '--format=%h%x1f%ad%x1f%s', ...(since ? [`${since}..HEAD`] : [])]);
  return out
    ? out.split('\n').map((line) => {
        const [hash, date, subject] = line.split('\x1f');
        return { hash, date, subject };
      })
    : [];
}

/** A subject's first sentence, cut at `max` characters. */
export function firstSentence(subject: string, max = 140): string {
  const m = /^(.+?[.;])(\s|$)/.exec(subject);
  const s = (m ? m[1] : subject).replace(/[.;]$/, '');
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/** The area a subject names before a colon ("Scan Service: …"), when it is a short name. */
export function areaOf(subject: string): string | null {
  const m = /^([A-Za-z][\w ./'-]{1,40}?):\s/.exec(subject);
  return m && m[1].split(' ').length <= 4 ? m[1] : null;
}

const MERGE = /^Merge branch '([^']+)'/;

/** The entry's Markdown: a heading with version and date, then the list or the summary. */
export function changelogEntry(version: string, date: string, commits: readonly Commit[], since: string | null): string {
  const head = `## ${version} — ${date}\n\n`;
  if (!commits.length) return `${head}No commits since ${since}.\n`;
  const own = commits.filter((c) => !MERGE.test(c.subject));
  if (since) return `${head}${own.length} commits since ${since}:\n\n${own.map((c) => `- ${firstSentence(c.subject)} (${c.hash})`).join('\n')}\n`;
  const first = commits[0];
  const last = commits[commits.length - 1];
  const areas = new Map<string, number>();
  for (const c of own) {
    const a = areaOf(c.subject);
    if (a) areas.set(a, (areas.get(a) ?? 0) + 1);
  }
  const named = [...areas].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const inAreas = named.reduce((n, [, k]) => n + k, 0);
  const branches = commits.map((c) => MERGE.exec(c.subject)?.[1]).filter((b): b is string => !!b);
  const lines = [
    `The first numbered release: ${own.length} commits from ${first.hash} (${first.date}) to ${last.hash} (${last.date}), summarised (no earlier tag).`,
    '',
    `Areas named by the commit subjects (${inAreas} commits; the other ${own.length - inAreas} name none):`,
    '',
    ...named.slice(0, 20).map(([a, n]) => `- ${a}: ${n}`),
    ...(named.length > 20 ? [`- ${named.length - 20} more areas: ${named.slice(20).reduce((n, [, k]) => n + k, 0)}`] : []),
  ];
  if (branches.length) lines.push('', `Branches merged (${branches.length}): ${[...new Set(branches)].join(', ')}.`);
  return `${head}${lines.join('\n')}\n`;
}

const TITLE = '# Changelog\n\nEach numbered release of the add-on, newest first (written by `npm run release`).\n';

/** CHANGELOG.md with `entry` put above the previous entries (a new file when there is none). */
export function withEntry(previous: string | null, entry: string): string {
  const rest = previous ? previous.slice(previous.indexOf('\n## ') + 1 || previous.length) : '';
  return `${TITLE}\n${entry}${rest && rest.startsWith('## ') ? `\n${rest}` : ''}`;
}
