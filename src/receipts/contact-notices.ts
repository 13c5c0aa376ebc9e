/**
 * The e-mails of the contact page and of e-mail updates (pure, browser-safe): an enquiry as donor
 * care receives it, its acknowledgement to the sender, the double opt-in confirmation, and the
 * frame of every update, which always carries the unsubscribe link the Spam Act requires.
 */
import { ENQUIRY_TOPICS, type EnquiryTopic } from "../payments/contact.js";
import { formatAbn } from "./abn.js";
import type { Notice } from "./notice.js";
import type { ReceiptIssuer } from "./receipt.js";

export { ENQUIRY_TOPICS, type EnquiryTopic };

export interface Enquiry {
  id: string;
  name: string;
  email: string;
  topic: EnquiryTopic;
  message: string;
}

const signature = (issuer: ReceiptIssuer) => `${issuer.name} (ABN ${formatAbn(issuer.abn)})`;

/** The enquiry as donor care gets it; Reply-To is the sender, so donor care answers them directly. */
export function enquiryForDonorCare(e: Enquiry, donorCare: string, issuer: ReceiptIssuer): Notice {
  return {
    key: `enquiry:${e.id}`,
    to: donorCare,
    replyTo: e.email,
    subject: `Enquiry ${e.id}: ${ENQUIRY_TOPICS[e.topic]}`,
    heading: "A new enquiry from the website",
    paragraphs: ["Sent from the contact page. Reply to this e-mail to answer the sender.", e.message],
    rows: [
      { label: "From", value: e.name },
      { label: "E-mail", value: e.email },
      { label: "Topic", value: ENQUIRY_TOPICS[e.topic] },
      { label: "Enquiry", value: e.id },
    ],
    footer: `${signature(issuer)}: the website's contact form.`,
  };
}

/** The acknowledgement to the sender: received, what happens next; their message is not repeated (no relay for spam). */
export function enquiryAcknowledgement(e: Enquiry, issuer: ReceiptIssuer): Notice {
  return {
    key: `enquiry-ack:${e.id}`,
    to: e.email,
    subject: "We have received your message",
    heading: "We have received your message",
    paragraphs: [
      `Assalamu alaikum ${e.name}. Thank you for writing to us about ${ENQUIRY_TOPICS[e.topic].toLowerCase()}. Our donor care team answers within two working days.`,
      `Your enquiry number is ${e.id}. If you write again about it, please quote it.`,
    ],
    footer: `${signature(issuer)}. You receive this because this address was given on our contact page.`,
  };
}

/** Double opt-in: nothing is sent to the address until its owner follows this link. */
export function confirmUpdatesNotice(o: {
  email: string;
  confirmUrl: string;
  consentText: string;
  issuer: ReceiptIssuer;
  /** Distinguishes a second request for the same address (its own link). */
  attempt: string;
}): Notice {
  return {
    key: `updates-confirm:${o.email}:${o.attempt}`,
    to: o.email,
    subject: "Please confirm you want our e-mail updates",
    heading: "Confirm your e-mail updates",
    paragraphs: [
      `You (or someone using this address) asked for e-mail updates from ${o.issuer.name}, agreeing to: "${o.consentText}"`,
      "Follow the link below to confirm. If it was not you, ignore this e-mail: we will not write again.",
    ],
    action: { label: "Yes, send me updates", url: o.confirmUrl },
    footer: `${signature(o.issuer)}.`,
  };
}

/** An update: whatever it says, it names the sender and carries a working unsubscribe link. */
export function updateNotice(o: {
  key: string;
  email: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  unsubscribeUrl: string;
  issuer: ReceiptIssuer;
}): Notice {
  return {
    key: o.key,
    to: o.email,
    subject: o.subject,
    heading: o.heading,
    paragraphs: o.paragraphs,
    footer: `${signature(o.issuer)}. You receive this because you asked for our e-mail updates. Unsubscribe at any time with the link below.`,
    unsubscribeUrl: o.unsubscribeUrl,
  };
}
