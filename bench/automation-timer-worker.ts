/**
 * A worker of the timers' crash benchmark (bench/automation.ts, CRASHES): boots the product on
 * DATABASE_URL without its HTTP, and fires due timers as the `automation.timers` job does, over and
 * over, until none of RULE_ID's are left — or until the benchmark kills it with SIGKILL.
 */
import { boot } from '../apps/server/src/boot.js';
import { loadConfig } from '../apps/server/src/config.js';
import { engineDepsOf } from '../apps/server/src/modules/automation/deps.js';
import { fireTimers } from '../apps/server/src/modules/automation/timers.js';

const ruleId = process.env.RULE_ID as string;
const config = loadConfig({ ...process.env, NODE_ENV: 'test', SEED: 'false', PORT: '0', LOG_LEVEL: 'silent', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-bench' });
const booted = await boot({ config, logger: false, work: false });
const deps = engineDepsOf(booted.app as never);
const leaseSeconds = config.automation.timerLeaseSeconds;
process.send?.({ ready: true });
for (;;) {
  await fireTimers(deps, { leaseSeconds });
  const { rows } = await booted.database.pool.query<{ left: string }>('select count(*) as left from automation_timers where rule_id = $1', [ruleId]);
  if (Number(rows[0].left) === 0) break;
  // what is left is claimed by a dead worker: its lease runs out
  await new Promise((r) => setTimeout(r, 250));
}
await booted.close();
process.exit(0);
