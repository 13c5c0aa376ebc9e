/**
 * `NZF_DEBUG=cache` (or a comma list holding `cache`, or `*`): one line on stderr for each cache miss
 * and why, each corrupt entry made again, and each page rendered again and why. Off, the switch is
 * undefined and callers write `cacheDebug?.(...)`, so neither the line nor its arguments are
 * worked out: off costs nothing.
 */
function enabled(value: string | undefined): boolean {
  return (value ?? "").split(",").some((part) => part.trim() === "cache" || part.trim() === "*");
}

export const cacheDebug: ((family: string, message: string) => void) | undefined = enabled(process.env.NZF_DEBUG)
  ? (family, message) => void process.stderr.write(`cache   ${family}: ${message}\n`)
  : undefined;
