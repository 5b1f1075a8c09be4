export { type Author, findAuthor, findViewer, type ViewerAccount } from './author.js';
export { findItem, findItems, getItem, itemFacts } from './get-item.js';
export { CODES_MAX, LIST_LIMIT_MAX, PAGE_SIZE_DEFAULT, WORKS_SEARCH_MAX } from './inputs.js';
export { ITEM_KINDS, type Item, type ItemKind } from './item.js';
export { type ItemFacts, itemFactsSchema } from './item-facts.js';
export { authorHandleOf } from './loaders.js';
export { countPublish } from './popularity.js';
export {
  type ItemConnection,
  publishedConnection,
  worksConnection,
} from './published-connection.js';
export { readPieceMetadata, readStoreClock, readStoreKidlisp } from './reference-reads.js';
export { searchWorks } from './search-works.js';
export {
  type FoundWork,
  searchWorksToolInput,
  type WorksSearchAnswer,
  worksSearchAnswerSchema,
} from './works-search-answer.js';
