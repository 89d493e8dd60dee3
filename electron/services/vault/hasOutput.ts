/**
 * A record's output is blank where String.prototype.trim leaves nothing (or there is none): the
 * rule publicDemonstrations (answering/sgaSettings.ts) applies, written for SQLite.
 */

/** What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), for SQLite's trim(X, Y). */
const JS_TRIMMED = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** SQL condition on `records`: the output is not blank (a NULL output is blank: trim(NULL) is NULL). */
export const HAS_OUTPUT = `trim(output, '${JS_TRIMMED}') <> ''`;
