import { loadCatalogue } from '../../harness/catalogue.js';
import { describePassthroughBaseline } from '../passthrough-baseline.js';

/**
 * The passthrough baseline on the whole catalogue: every attack exposed, every control passed.
 * `npm test` runs a quarter of it (test/conformance.test.ts); the committed report,
 * reports/brokers/passthrough/, is made by the same run through the command line
 * (`npm run report:broker -- passthrough`) and held to the whole catalogue by
 * test/harness/protocol-verdicts.test.ts.
 */
describePassthroughBaseline('the whole catalogue', loadCatalogue());
