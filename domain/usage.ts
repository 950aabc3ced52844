// How usage can be summed (GET /api/usage?groupBy=, read_usage): the read model and the doors' decoder share the words.

export const USAGE_GROUP_BY = ['day', 'project', 'harness', 'model', 'workflow', 'run'] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BY)[number];
