/** The one "did you mean" helper of fw lives in `@fw/schemas/suggest`. */
export { closest, didYouMean } from '@fw/schemas/suggest';
