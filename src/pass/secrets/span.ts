/** A stretch of text that holds a secret, and the kind its marker names. */
export interface SecretSpan {
	readonly start: number;
	readonly end: number;
	readonly kind: string;
}
