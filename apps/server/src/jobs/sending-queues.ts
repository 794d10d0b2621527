// The sending runner's queue names sit here, below the modules, so the chat service can wake the
// runner (a massive message from a chat) without importing the sending module above it (decision 0070).
/** The queue of a company's sending runner (modules/sending/runner.ts; its jobs are defined in jobs.ts): one job sends what the company has queued. */
export const SEND_QUEUE = 'sending.run';
/** Every minute: scheduled chunks whose time came, and companies with work but no live runner. */
export const SEND_SWEEP_QUEUE = 'sending.sweep';
