/** The stored document without `_id` (where `_id` is the record's own key, kept in another field too). */
export function strip<T extends { _id: string }>(d: T): Omit<T, "_id"> {
  const { _id: _, ...rest } = d;
  return rest;
}
