import { fieldKind, isNestedRef, type Resource, resourceList } from '@mostrador/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../lib/secret-box.js';
import { resourceTables } from '../db/resource-tables.js';
import { demoRecords } from './demo-records.js';

type Row = Record<string, unknown>;

/** References another seed sets with care instead of round-robin: a lead's board stage (seed/demo-board.ts). */
const placedElsewhere = new Set(['leads.stageId']);

/**
 * References a seed fills: those to other resources. A field that may point at its own
 * resource stays empty, and so does one pointing at a generated list of people (a chat's
 * lead, a lead's clean lead): such links are identities, not something to deal round-robin.
 */
const linksOf = (r: Resource) =>
  Object.entries(r.refs).filter(([path, keys]) => !isNestedRef(path) && !keys.includes(r.key) && !keys.some((k) => k in demoRecords) && !placedElsewhere.has(`${r.key}.${path}`));

/** Resources in an order where every referenced resource comes first. */
function dependencyOrder(): Resource[] {
  const done = new Set<string>();
  const out: Resource[] = [];
  const visit = (r: Resource) => {
    if (done.has(r.key)) return;
    done.add(r.key);
    for (const [, keys] of linksOf(r)) for (const k of keys) visit(resourceList.find((x) => x.key === k) as Resource);
    out.push(r);
  };
  for (const r of resourceList) visit(r);
  return out;
}

/**
 * Lists written by the product itself, never from examples: the template history is the template
 * messages' own (the database writes it from them, decision 0042), and the massive history's rows
 * are the demo's real massive sends (seed/demo-massive.ts).
 */
const notSeeded = new Set(['template-messages-logs', 'massive-messages-logs']);

/**
 * Fills one company with every resource's declared Spanish examples plus the generated
 * records of the lists that live on volume (leads, chats, logs), linked the way a real
 * company's data is: each product gets a brand, each agent a sales team… Examples leave
 * reference fields out (they cannot know ids); they are set here, round-robin over the
 * referenced resource's records, inserting referenced resources first (see linksOf).
 */
export async function seedResources(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal'>): Promise<void> {
  const ids = new Map<string, string[]>();
  for (const resource of dependencyOrder()) {
    if (notSeeded.has(resource.key)) continue;
    const links = linksOf(resource);
    const rows = [...resource.examples, ...(demoRecords[resource.key]?.() ?? [])].map((example, i) => {
      const { createdAt, updatedAt, ...fields } = example as Row;
      // the fields as stored: a reference a create requires (requiredRefs) is set below, like the others
      const row: Row = { ...(resource.stored.parse(fields) as Row), companyId, ...(createdAt ? { createdAt, updatedAt } : {}) };
      for (const f of resource.writeOnly) if (row[f] !== undefined) row[f] = secrets.seal(row[f]);
      for (const [field, keys] of links) {
        const targets = keys.flatMap((k) => ids.get(k) ?? []);
        if (targets.length === 0 || row[field] !== undefined) continue;
        const many = fieldKind((resource.fields as Record<string, z.ZodType>)[field]) === 'json';
        const one = targets[i % targets.length];
        row[field] = many ? [...new Set([one, targets[(i * 7 + 3) % targets.length]])].slice(0, 1 + (i % 2)) : one;
      }
      return row;
    });
    const table = resourceTables[resource.key];
    const inserted = await db
      .insert(table)
      .values(rows as never)
      .returning({ id: (table as unknown as Record<string, AnyPgColumn>).id });
    ids.set(resource.key, inserted.map((r) => r.id as string));
  }
}
