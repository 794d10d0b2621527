/**
 * Customer and issuer tax ids of the countries Genial invoices in (decision 0037), with their
 * check digits: Perú's RUC (11 digits, módulo 11) and DNI (8 digits), Chile's RUT (módulo 11, K
 * for 10) and Colombia's NIT (DIAN weights) and CC. A business document makes a factura, a
 * person's (or none) a boleta.
 */
export type DocType = 'RUC' | 'DNI' | 'RUT' | 'NIT' | 'CC' | '-';
export interface CustomerDoc {
  docType: DocType;
  docId: string;
  business: boolean;
}

export const digitsOf = (raw: string) => raw.replace(/[.\-\s]/g, '').toUpperCase();

export function rucValid(ruc: string): boolean {
  if (!/^(10|15|16|17|20)\d{9}$/.test(ruc)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(ruc[i]), 0);
  const check = (11 - (sum % 11)) % 10;
  return check === Number(ruc[10]);
}

/** The check digit of a RUT's body: '0'–'9' or 'K'. */
export function rutCheck(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 11 ? '0' : dv === 10 ? 'K' : String(dv);
}
export function rutValid(rut: string): boolean {
  const m = /^(\d{7,8})([\dK])$/.exec(rut);
  return !!m && rutCheck(m[1]) === m[2];
}

export function nitCheck(body: string): number {
  const weights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * weights[i];
  const r = sum % 11;
  return r > 1 ? 11 - r : r;
}
export function nitValid(nit: string): boolean {
  return /^\d{9}\d$/.test(nit) && nitCheck(nit.slice(0, 9)) === Number(nit[9]);
}

const docLabel: Record<DocType, string> = { RUC: 'RUC', DNI: 'DNI', RUT: 'RUT', NIT: 'NIT', CC: 'documento', '-': 'documento' };

/**
 * What a customer's tax id is in a country, or why it is not valid (Spanish). No id: a boleta
 * without document ('-').
 */
export function customerDocOf(country: string, raw: string | null | undefined): CustomerDoc | { error: string } {
  const id = digitsOf(raw ?? '');
  if (!id) return { docType: '-', docId: '-', business: false };
  if (country === 'PE') {
    if (/^\d{8}$/.test(id)) return { docType: 'DNI', docId: id, business: false };
    if (/^\d{11}$/.test(id)) return rucValid(id) ? { docType: 'RUC', docId: id, business: true } : { error: `El RUC ${id} no es válido (dígito verificador): revísalo con el cliente` };
    return { error: `«${raw}» no es un RUC (11 dígitos) ni un DNI (8 dígitos)` };
  }
  if (country === 'CL') {
    if (!/^\d{7,8}[\dK]$/.test(id)) return { error: `«${raw}» no es un RUT (por ejemplo 76.086.428-5)` };
    if (!rutValid(id)) return { error: `El RUT ${id.slice(0, -1)}-${id.slice(-1)} no es válido (dígito verificador): revísalo con el cliente` };
    return { docType: 'RUT', docId: `${id.slice(0, -1)}-${id.slice(-1)}`, business: Number(id.slice(0, -1)) >= 50_000_000 };
  }
  if (country === 'CO') {
    if (/^\d{10}$/.test(id) && /^[89]/.test(id)) return nitValid(id) ? { docType: 'NIT', docId: `${id.slice(0, 9)}-${id[9]}`, business: true } : { error: `El NIT ${id.slice(0, 9)}-${id[9]} no es válido (dígito verificador): revísalo con el cliente` };
    if (/^\d{6,10}$/.test(id)) return { docType: 'CC', docId: id, business: false };
    return { error: `«${raw}» no es un NIT ni una cédula` };
  }
  return { error: `Genial no factura en ${country}` };
}

export const docTypeLabel = (t: DocType) => docLabel[t];
