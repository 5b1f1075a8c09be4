import { graphql } from 'relay-runtime';

/**
 * What relay-compiler compiles (test/clients/relay.test.ts): never run as they are. The home
 * page as a Relay app writes it, its node read through three nested fragments and paged with
 * @connection; an item refetched by its global id, its remixes paged through node(id:).
 */
export const home = graphql`
  query documentsHomeQuery {
    ...documents_home
  }
`;

export const homePage = graphql`
  fragment documents_home on Query
  @refetchable(queryName: "documentsHomePaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 24 }, cursor: { type: "String" }) {
    published(first: $count, after: $cursor) @connection(key: "documents_home_published") {
      edges {
        node {
          ...documents_card
        }
      }
    }
  }
`;

export const card = graphql`
  fragment documents_card on PublishedItem {
    ...documents_meta
  }
`;

export const meta = graphql`
  fragment documents_meta on PublishedItem {
    code
    ...documents_who
  }
`;

export const who = graphql`
  fragment documents_who on PublishedItem {
    author {
      handle
    }
  }
`;

export const item = graphql`
  query documentsItemQuery($code: String!) {
    item(code: $code) {
      ...documents_item
      ...documents_remixes
    }
  }
`;

export const itemFacts = graphql`
  fragment documents_item on PublishedItem @refetchable(queryName: "documentsItemRefetchQuery") {
    code
    hits
    address
  }
`;

export const remixes = graphql`
  fragment documents_remixes on PublishedItem
  @refetchable(queryName: "documentsRemixesPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    remixes(first: $count, after: $cursor) @connection(key: "documents_remixes") {
      edges {
        node {
          code
        }
      }
    }
  }
`;
