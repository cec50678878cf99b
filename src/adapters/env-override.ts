/** Sets environment variables of this process and puts the old values back (pi's extensions read the env at load). */
export class EnvOverride {
	private readonly saved = new Map<string, string | undefined>();

	set(vars: Readonly<Record<string, string | undefined>>): void {
		for (const [key, value] of Object.entries(vars)) {
			if (!this.saved.has(key)) this.saved.set(key, process.env[key]);
			if (value === undefined) Reflect.deleteProperty(process.env, key);
			else process.env[key] = value;
		}
	}

	restore(): void {
		for (const [key, value] of this.saved) {
			if (value === undefined) Reflect.deleteProperty(process.env, key);
			else process.env[key] = value;
		}
		this.saved.clear();
	}
}
