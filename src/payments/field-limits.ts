/**
 * How long a donor's text fields may be. Apart from validate.ts so the donation form's first load
 * can show the dedication's counter without the validation code, which arrives with the donor's
 * first use of the form (src/client/donation/validator.ts).
 */
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_DEDICATION_LENGTH = 200;
