import picomatch from "picomatch/posix";
import type { PathMatcher } from "../../core/code-context/ports.ts";

/**
 * The anchors' glob matcher: picomatch with its default options and POSIX paths on every
 * platform (`*` does not cross `/`, `**` does; dotfiles only match a pattern that names the dot;
 * braces, extglobs and character classes as in Bash). A pattern picomatch cannot parse throws.
 */
export const picomatchMatcher: PathMatcher = {
  compile(pattern: string): (path: string) => boolean {
    const test = picomatch(pattern, { strictBrackets: true });
    return (path) => test(path);
  },
};
