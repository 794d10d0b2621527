import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setNavigator } from '../lib/navigation';

/** Hands the router's navigate to code outside React (the api client's 401 rules). */
export function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to) => {
      void navigate(to);
    });
  }, [navigate]);
  return null;
}
