/** Lower case without accents: 'Compañías' matches 'companias' (client-side filters). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}
