/** A request refused on purpose — bad input the schema cannot catch, a missing item, a state that forbids it — not a failure of Veil. */
export class RefusalError extends Error {}
