/** The day ranges of the list filters (orders, the message histories, the GPT tracker): `YYYY-MM-DD` days in the browser's zone. */

/** The start of a day in the browser's zone, plus `days`, as an ISO instant. */
export function dayStartIso(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y as number, (m as number) - 1, (d as number) + days).toISOString();
}

/** `to` before `from`: the range is empty. */
export function dayRangeError(values: { from: string; to: string }): string | undefined {
  return values.from && values.to && values.to < values.from ? 'La fecha final debe ser posterior a la inicial' : undefined;
}
