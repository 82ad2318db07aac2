/** Masks a phone number keeping the first 3 and last 4 digits (spec §2, sidebar). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/^\+?86/, '');
  if (digits.length <= 7) return digits;
  return `${digits.slice(0, 3)}${'*'.repeat(digits.length - 7)}${digits.slice(-4)}`;
}
