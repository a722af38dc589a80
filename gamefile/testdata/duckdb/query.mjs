// Runs one SQL query through DuckDB (npm package @duckdb/node-api) and prints its rows as a
// JSON array of arrays of strings. Used by results/duckdb_test.go; install the package with
//   npm install --prefix results/testdata/duckdb @duckdb/node-api
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const r = await c.runAndReadAll(process.argv[2]);
console.log(JSON.stringify(r.getRowsJson()));
