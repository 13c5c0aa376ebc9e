/**
 * The contact form's words. The contact page's own words are English (templates/pages/content-pages.tsx),
 * so are these; the template passes them as a prop, as the donation island's are passed.
 */
import { ENQUIRY_TOPICS } from "../../payments/contact.js";

export const contactWords = {
  heading: "Send us a message",
  intro: "We answer within two working days. Every field is needed.",
  name: "Your name",
  email: "Your e-mail address",
  topic: "What is it about?",
  choose: "Choose…",
  topics: ENQUIRY_TOPICS as Record<string, string>,
  message: "Your message",
  send: "Send message",
  sending: "Sending…",
  required: {
    name: "Please enter your name.",
    email: "Please enter your e-mail address.",
    topic: "Please choose what your message is about.",
    message: "Please enter your message.",
  } as Record<string, string>,
  tooLong: "Please keep this under {max} characters.",
  invalidEmail: "Please enter an e-mail address such as name@example.com.",
  sent: "Thank you, we have your message",
  sentDetail: "Your enquiry number is {id}. We have sent you an e-mail saying so; we answer within two working days.",
  offline: "We could not reach our service. Your message is still here: please try again.",
  timeout: "Our service took too long to answer. Your message is still here: please try again.",
  failed: "Your message could not be sent. It is still here: {detail}",
};

export type ContactWords = typeof contactWords;
