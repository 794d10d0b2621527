import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/config.js';

/**
 * Decision 0045's index of SQL functions and triggers (issue 27): the migrations redefine the
 * metric functions (mostrador_metrics_rebuild five times), so the index names, for each function
 * and trigger that exists after the last migration, the migration holding its current body.
 * This reads the migrations in the journal's order as PostgreSQL applies them — a later `create
 * or replace` wins, a `drop` removes, `alter function … rename to` carries the body to the new
 * name — and checks the index against it, so a migration that redefines one must update the index.
 */
const migrations = path.join(repoRoot, 'apps/server/src/db/migrations');
const decision = path.join(repoRoot, 'docs/decisions/0045-metrics-rollups.md');

interface Trigger {
  migration: string;
  runs?: string;
}

/** Each function's and trigger's defining migration after all of them ran. */
function currentDefinitions() {
  const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const functions = new Map<string, string>();
  const triggers = new Map<string, Trigger>();
  const ident = String.raw`(?:public\.)?"?([a-z_][a-z0-9_]*)"?`;
  for (const { tag } of journal.entries) {
    const file = `${tag}.sql`;
    // comments out (drizzle's `--> statement-breakpoint` is kept: it is no comment of SQL's own)
    const text = readFileSync(path.join(migrations, file), 'utf8').replace(/--(?!>)[^\n]*/g, '');
    const statement = new RegExp(
      String.raw`\b(?:(create(?:\s+or\s+replace)?\s+function)|(drop\s+function(?:\s+if\s+exists)?)|(alter\s+function)|(create(?:\s+or\s+replace)?\s+trigger)|(drop\s+trigger(?:\s+if\s+exists)?))\s+${ident}`,
      'gi',
    );
    for (const m of text.matchAll(statement)) {
      const [, create, drop, alter, createTrigger, dropTrigger, name] = m;
      const rest = text.slice(m.index + m[0].length);
      if (create) functions.set(name, file);
      else if (drop) functions.delete(name);
      else if (alter) {
        const renamed = /^\s*(?:\([^)]*\))?\s+rename\s+to\s+"?([a-z_][a-z0-9_]*)"?/i.exec(rest);
        const body = functions.get(name);
        if (renamed && body) {
          functions.set(renamed[1], body);
          functions.delete(name);
        }
      } else {
        const on = new RegExp(String.raw`^[\s\S]*?\bon\s+${ident}`, 'i').exec(rest);
        if (!on) throw new Error(`${file}: trigger ${name} without its table`);
        const key = `${name} on ${on[1]}`;
        if (dropTrigger) triggers.delete(key);
        else if (createTrigger) triggers.set(key, { migration: file, runs: /execute\s+(?:function|procedure)\s+"?([a-z_0-9]+)/i.exec(rest.split(';')[0])?.[1] });
      }
    }
  }
  return { functions, triggers };
}

/** The index's rows: `| \`function\` | \`migration.sql\` | …` and `| \`trigger\` | \`table\` | \`function\` | \`migration.sql\` |`. */
function indexed() {
  const text = readFileSync(decision, 'utf8');
  const functions = new Map<string, string>();
  const triggers = new Map<string, Trigger>();
  for (const line of text.split('\n')) {
    const f = /^\| `(mostrador_[a-z0-9_]+)` \| `(\d{4}_[a-z0-9_]+\.sql)` \|/.exec(line);
    if (f) functions.set(f[1], f[2]);
    const t = /^\| `([a-z0-9_]+)` \| `([a-z0-9_]+)` \| `(mostrador_[a-z0-9_]+)` \| `(\d{4}_[a-z0-9_]+\.sql)` \|/.exec(line);
    if (t) triggers.set(`${t[1]} on ${t[2]}`, { migration: t[4], runs: t[3] });
  }
  return { functions, triggers };
}

describe("decision 0045's index of SQL functions and triggers", () => {
  const current = currentDefinitions();
  const index = indexed();

  it('reads the migrations as they redefine the rebuild', () => {
    // 0023 wrote it, 0026, 0032 and 0042 replaced it, 0047 renamed 0042's and wrote the lock-first one
    expect(current.functions.get('mostrador_metrics_rebuild')).toBe('0047_metrics_rebuild_lock_order.sql');
    expect(current.functions.get('mostrador_metrics_rebuild_work')).toBe('0042_metrics_staged.sql');
    expect(current.triggers.get('metrics_chat_messages_ins on chat_messages')).toEqual({ migration: '0024_metrics_static_message_triggers.sql', runs: 'mostrador_metrics_messages_stmt' });
  });

  it('names the last migration that defines each function, and no function that is gone', () => {
    expect(Object.fromEntries([...index.functions].sort())).toEqual(Object.fromEntries([...current.functions].sort()));
  });

  it('names the migration that created each trigger and the function it runs', () => {
    expect(Object.fromEntries([...index.triggers].sort())).toEqual(Object.fromEntries([...current.triggers].sort()));
  });
});
