import type { ContactMessage, ContactReceipt } from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** `POST /api/v1/contact` (anyone): stored and e-mailed to the support address; rate-limited. */
export function sendContactMessage(body: ContactMessage): Promise<ContactReceipt> {
  return api.post<ContactReceipt>('/contact', body, { auth: false });
}
