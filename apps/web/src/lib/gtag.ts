/**
 * SPEC §2: an optional analytics id given as `?gtagid=XYZ` loads Google Analytics.
 * Nothing is injected without the parameter; ids are checked so the URL cannot inject markup.
 */
const GTAG_ID = /^[A-Za-z0-9-]{1,40}$/;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export function loadGtagFromSearch(search: string, doc: Document = document): string | null {
  const id = new URLSearchParams(search).get('gtagid');
  if (!id || !GTAG_ID.test(id)) return null;
  if (doc.querySelector(`script[data-gtag-id="${id}"]`)) return id;
  const script = doc.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  script.dataset.gtagId = id;
  doc.head.appendChild(script);
  const win = doc.defaultView ?? window;
  win.dataLayer = win.dataLayer ?? [];
  win.gtag = function gtag() {
    // gtag.js reads the arguments object itself.
    // biome-ignore lint/complexity/noArguments: the gtag snippet requires `arguments`
    win.dataLayer?.push(arguments);
  };
  win.gtag('js', new Date());
  win.gtag('config', id);
  return id;
}
