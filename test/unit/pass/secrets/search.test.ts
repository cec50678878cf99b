import { describe, expect, it } from "vitest";
import { Search } from "../../../../src/pass/secrets/search.js";

/** Every match of a search from its start: where each stands and what it matched. */
function all(search: Search): [number, string][] {
	const out: [number, string][] = [];
	for (let m = search.next(); m !== null; m = search.next()) out.push([m.index, m[0]]);
	return out;
}

describe("Search: one global pattern's matches in one text", () => {
	it("gives the matches matchAll gives, in order", () => {
		const text = "ghp_a x ghp_b\nghp_c";
		expect(all(new Search(/ghp_\w/g, text))).toEqual([...text.matchAll(/ghp_\w/g)].map((m) => [m.index, m[0]]));
	});

	it("moves past an empty match by one character, as matchAll does, so it ends", () => {
		expect(all(new Search(/x*/g, "ab"))).toEqual([
			[0, ""],
			[1, ""],
			[2, ""],
		]);
	});

	it("goes on from where a finder moved it, past what the finder has read", () => {
		const search = new Search(/key=/g, "key=key=key= key=");
		expect(search.next()?.index).toBe(0);
		search.from = 12;
		expect(all(search)).toEqual([[13, "key="]]);
	});

	it("keeps its place whatever another search of the same pattern did in between", () => {
		const pattern = /a/g;
		const first = new Search(pattern, "a.a.a");
		const second = new Search(pattern, "aaaaaaaaaa");
		expect(first.next()?.index).toBe(0);
		all(second);
		pattern.lastIndex = 7;
		expect(first.next()?.index).toBe(2);
		expect(first.next()?.index).toBe(4);
		expect(first.next()).toBeNull();
	});

	it("refuses a pattern without the global flag, which would ignore the place it is given", () => {
		expect(() => new Search(/a/, "aaa")).toThrow("not global");
	});
});
