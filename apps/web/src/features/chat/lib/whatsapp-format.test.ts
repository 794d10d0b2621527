import { describe, expect, it } from 'vitest';
import { whatsappSegments } from './whatsapp-format';

describe('whatsappSegments: what a customer reads as formatted in WhatsApp', () => {
  it('bold, italic, strike and monospaced, nested where WhatsApp nests them', () => {
    expect(whatsappSegments('Hola *Rosa*, el _polo_ cuesta ~S/ 60~ S/ 45')).toEqual([
      { type: 'text', text: 'Hola ' },
      { type: 'bold', children: [{ type: 'text', text: 'Rosa' }] },
      { type: 'text', text: ', el ' },
      { type: 'italic', children: [{ type: 'text', text: 'polo' }] },
      { type: 'text', text: ' cuesta ' },
      { type: 'strike', children: [{ type: 'text', text: 'S/ 60' }] },
      { type: 'text', text: ' S/ 45' },
    ]);
    expect(whatsappSegments('*_oferta_*')).toEqual([{ type: 'bold', children: [{ type: 'italic', children: [{ type: 'text', text: 'oferta' }] }] }]);
    expect(whatsappSegments('Código: ```PE-*123*\nfin```')).toEqual([
      { type: 'text', text: 'Código: ' },
      { type: 'mono', text: 'PE-*123*\nfin' },
    ]);
  });

  it('leaves as typed what WhatsApp would not format', () => {
    for (const plain of ['2*3*4 cajas', '* no es negrita *', 'un *solo asterisco', 'archivo_final_v2.pdf', '*una\nlínea*', '**']) {
      expect(whatsappSegments(plain)).toEqual([{ type: 'text', text: plain }]);
    }
  });

  it('finds the addresses, without the sentence mark that follows them, and never formats inside them', () => {
    expect(whatsappSegments('Mira https://tienda.pe/catalogo?x=1_y_2. ¿Te gusta?')).toEqual([
      { type: 'text', text: 'Mira ' },
      { type: 'link', text: 'https://tienda.pe/catalogo?x=1_y_2', href: 'https://tienda.pe/catalogo?x=1_y_2' },
      { type: 'text', text: '. ¿Te gusta?' },
    ]);
    expect(whatsappSegments('(http://a.pe/b)')).toEqual([
      { type: 'text', text: '(' },
      { type: 'link', text: 'http://a.pe/b', href: 'http://a.pe/b' },
      { type: 'text', text: ')' },
    ]);
    // only http(s): nothing else becomes a link
    expect(whatsappSegments('javascript:alert(1) ftp://x.pe')).toEqual([{ type: 'text', text: 'javascript:alert(1) ftp://x.pe' }]);
  });

  it('reads 100,000 characters of openers that never close once, not once per marker (a crafted message must not freeze the thread)', () => {
    const crafted = '*a _b ~c '.repeat(12_000);
    expect(whatsappSegments(crafted)).toEqual([{ type: 'text', text: crafted }]);
  });
});
