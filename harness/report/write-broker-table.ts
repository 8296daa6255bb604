import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { loadRequirements } from '../requirements.js';
import { brokerTable, loadReports, withBrokerTable } from './broker-table.js';

// `npm run generate`: the README's table of brokers, from the reports committed under reports/.
const readme = join(packageRoot, 'README.md');
writeFileSync(readme, withBrokerTable(readFileSync(readme, 'utf8'), brokerTable(loadReports(join(packageRoot, 'reports', 'brokers')), loadRequirements())));
