import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leastFitting } from "../../../src/events/least-fitting.js";
import { params } from "../../properties/laws.js";

describe("the least count that fits", () => {
	it("is where the answer turns from false to true, max when it never does, asking only counts below max", () => {
		fc.assert(
			fc.property(
				fc.nat({ max: 5000 }).chain((max) => fc.tuple(fc.constant(max), fc.nat({ max: max + 3 }))),
				([max, turn]) => {
					const asked: number[] = [];
					const least = leastFitting(max, (count) => {
						asked.push(count);
						return count >= turn;
					});
					expect(least).toBe(Math.min(turn, max));
					expect(asked.every((count) => count >= 0 && count < max)).toBe(true);
					expect(asked.length).toBeLessThanOrEqual(Math.ceil(Math.log2(max + 1)));
				},
			),
			params({ numRuns: 2000 }),
		);
	});

	it("is 0 for an empty run", () => {
		expect(leastFitting(0, () => false)).toBe(0);
	});
});
