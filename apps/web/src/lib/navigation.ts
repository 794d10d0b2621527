/**
 * Lets code outside React (the api client) navigate. The router registers its own
 * `navigate` at start; until then a full page load is the fallback.
 */
type Navigate = (to: string) => void;

let navigator: Navigate = (to) => window.location.assign(to);

export function setNavigator(next: Navigate): void {
  navigator = next;
}

export function navigateTo(to: string): void {
  navigator(to);
}
