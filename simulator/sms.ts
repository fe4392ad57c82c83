/**
 * SMS encoding facts the records must agree with: a text that fits the GSM 03.38 alphabet goes as
 * dcs "0" (160 septets in one part, 153 per part when concatenated), anything else — Japanese in
 * particular — as UCS-2, dcs "8" (70 characters, 67 per part). Extension characters (€, [, ] …)
 * take two septets, so they count twice toward the parts but once toward the length.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export interface SmsEncoding {
  dcs: '0' | '8';
  /** Characters, as message_length reports them. */
  length: number;
  parts: number;
}

export function smsEncoding(text: string): SmsEncoding {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (basic.has(ch)) septets += 1;
    else if (extension.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    const length = [...text].length;
    return { dcs: '0', length, parts: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  }
  // UCS-2 counts 16-bit units: a character outside the BMP (an emoji) takes two.
  const units = text.length;
  return { dcs: '8', length: [...text].length, parts: units <= 70 ? 1 : Math.ceil(units / 67) };
}
