/**
 * The glob matcher port. Anchors have picomatch semantics; core does not import picomatch (it
 * imports TypeBox and itself only), so the host gives it a matcher (adapters/glob/).
 */
export interface PathMatcher {
  /** A predicate for one pattern; throws on a pattern the matcher cannot parse. */
  compile(pattern: string): (path: string) => boolean;
}
