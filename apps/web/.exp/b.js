import { BrowserRouter, Routes, Route, Navigate, Link, useNavigate, Outlet } from 'react-router';
console.log(BrowserRouter, Routes, Route, Navigate, Link, useNavigate, Outlet);
