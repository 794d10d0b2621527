/**
 * The parts of the contract that need zod, re-exported from one module that is only
 * imported dynamically. The first load of /login keeps to the zod-free parts
 * (messages, codes, pickLang); these arrive when a form validates or a call fails.
 */
export { errorMessagesOf, loginInput } from '@mostrador/contract';
