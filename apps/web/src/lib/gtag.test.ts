import { afterEach, describe, expect, it } from 'vitest';
import { loadGtagFromSearch } from './gtag';

const gtagScripts = () => document.head.querySelectorAll('script[src^="https://www.googletagmanager.com/gtag/js"]');

afterEach(() => {
  for (const script of gtagScripts()) script.remove();
  delete window.gtag;
  delete window.dataLayer;
});

describe('loadGtagFromSearch', () => {
  it('injects gtag.js with the id given as ?gtagid=', () => {
    expect(loadGtagFromSearch('?gtagid=G-ABC123&x=1')).toBe('G-ABC123');
    const scripts = gtagScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0].getAttribute('src')).toBe('https://www.googletagmanager.com/gtag/js?id=G-ABC123');
    expect(window.dataLayer?.length).toBe(2);
  });

  it('injects nothing without the parameter', () => {
    expect(loadGtagFromSearch('?foo=bar')).toBeNull();
    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
  });

  it('refuses ids that are not analytics ids', () => {
    expect(loadGtagFromSearch('?gtagid=%3Cscript%3E')).toBeNull();
    expect(gtagScripts()).toHaveLength(0);
  });

  it('loads the script once', () => {
    loadGtagFromSearch('?gtagid=G-1');
    loadGtagFromSearch('?gtagid=G-1');
    expect(gtagScripts()).toHaveLength(1);
  });
});
