export { type CaughtMessage, type SmtpCatcher, type SmtpCatcherOptions, startSmtpCatcher } from "./catcher.js";
