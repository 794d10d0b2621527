import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { routes } from './routes';

export const router = createBrowserRouter(routes);

setNavigator((to) => {
  void router.navigate(to);
});
