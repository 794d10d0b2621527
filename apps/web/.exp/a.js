import { createBrowserRouter, Navigate, Link, useNavigate, Outlet } from 'react-router';
import { RouterProvider } from 'react-router/dom';
console.log(createBrowserRouter, RouterProvider, Navigate, Link, useNavigate, Outlet);
