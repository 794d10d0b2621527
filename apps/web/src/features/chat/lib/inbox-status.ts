import type { ChatStatus } from '@mostrador/contract';

/**
 * The inbox's «Estado» (decision 0076): Abiertos (the default), Pospuestos, Resueltos or Todos,
 * kept in the address as `?estado=` (abiertos is the address without it), so a reload, a link or
 * the back button keeps the list a person was looking at.
 */
export const inboxStatusChoices = ['open', 'snoozed', 'closed', 'all'] as const;
export type InboxStatusChoice = (typeof inboxStatusChoices)[number];

const params: Record<InboxStatusChoice, string> = { open: 'abiertos', snoozed: 'pospuestos', closed: 'resueltos', all: 'todos' };

/** The choice an `?estado=` value names; anything else (or nothing) is Abiertos. */
export function statusChoiceOf(param: string | null | undefined): InboxStatusChoice {
  return inboxStatusChoices.find((choice) => params[choice] === param) ?? 'open';
}

/** The `?estado=` value of a choice: none for Abiertos. */
export function statusParamOf(choice: InboxStatusChoice): string | undefined {
  return choice === 'open' ? undefined : params[choice];
}

/** The status the inbox asks the server for: none for Todos. */
export function statusOfChoice(choice: InboxStatusChoice): ChatStatus | undefined {
  return choice === 'all' ? undefined : choice;
}
