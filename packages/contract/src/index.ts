export * from './auth.js';
export * from './decimal.js';
export * from './error-messages.js';
export * from './errors.js';
export * from './fields.js';
export * from './messages-es.js';
export * from './permissions.js';
export * from './phone.js';
