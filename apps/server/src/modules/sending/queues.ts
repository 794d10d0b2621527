/** The queue of a company's sending runner (runner.ts; its jobs are defined in jobs.ts): one job sends what the company has queued. */
export const SEND_QUEUE = 'sending.run';
/** Every minute: scheduled chunks whose time came, and companies with work but no live runner. */
export const SEND_SWEEP_QUEUE = 'sending.sweep';
