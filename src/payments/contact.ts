/**
 * The contract of the enquiry and e-mail updates API, shared by the site's
 * forms and the service (docs/payments-api.md, "Enquiries and e-mail updates"): the enquiry topics,
 * where a sign-up may come from, the request and answer bodies. Browser-safe.
 */

/** What an enquiry may be about; the keys are what the form posts, the words what people read. */
export const ENQUIRY_TOPICS = {
  general: "A general question",
  donation: "A donation or a receipt",
  zakat: "A question about zakat",
  help: "Asking for help",
  volunteering: "Volunteering or partnering",
  other: "Something else",
} as const;
export type EnquiryTopic = keyof typeof ENQUIRY_TOPICS;

/** Where a sign-up for e-mail updates was given: recorded with the consent. */
export const UPDATE_SOURCES = ["footer", "donation-form"] as const;
export type UpdateSource = (typeof UPDATE_SOURCES)[number];

/** Field lengths the service accepts (the forms say so before sending). */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5_000, consentText: 500 } as const;

/** POST /enquiries. `website` is the honeypot: people leave it empty. */
export interface EnquiryRequest {
  name: string;
  email: string;
  topic: EnquiryTopic;
  message: string;
  website: string;
}

export interface EnquiryAccepted {
  enquiryId: string;
}

/** POST /updates: the words the person agreed to are sent as shown, and kept with the consent. */
export interface UpdatesSignUpRequest {
  email: string;
  source: UpdateSource;
  consentText: string;
  website: string;
}

/** The same answer whatever the address's state: the page cannot tell who is subscribed. */
export interface UpdatesSignUpAccepted {
  status: "confirmation_sent";
}
