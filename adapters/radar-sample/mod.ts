/** The sample prospect directory (`RADAR_PROVIDER=sample`): generated data, no network. */
export { createSampleDirectory } from "./directory.ts";
export {
  generateSampleData,
  PEOPLE_PER_COMPANY,
  SAMPLE_COMPANY_COUNT,
  SAMPLE_COUNTRIES,
  SAMPLE_INDUSTRIES,
  type SampleCompany,
  type SampleData,
  sampleData,
  type SamplePerson,
} from "./data.ts";
