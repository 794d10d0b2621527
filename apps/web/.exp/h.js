import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
console.log(QueryClient, QueryClientProvider, useMutation, useQuery);
